"""Sender authentication as a second lock, through the real ingest (`pbp poll` over IMAP
from Dovecot): with `trusted_authserv_id` set, only the receiving server's own
Authentication-Results header counts; mail whose From domain fails DMARC (or, with no
DMARC result, passes neither aligned SPF nor aligned DKIM) is refused with a reason sent
to the roster address, whatever its token (pbp.mail.sender_auth)."""

from __future__ import annotations

import pytest

import engine
from pbp.demo.players import filled_reply_text, mail_text
from tests.fixtures.harness import Host, make_players, write_roster

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]
TRUSTED = "mx.pbp-host.example"


@pytest.fixture
def game(tmp_path, mail_server, smtp_server, make_player):
    host = Host(
        tmp_path, mail_server, smtp_server, mail_server.add_user(mail_server.new_address("pbp"))
    )
    host.write_settings()
    text = host.settings.read_text().replace(
        "[imap]", f"trusted_authserv_id = {TRUSTED}\n\n[imap]", 1
    )
    host.settings.write_text(text)
    players = make_players(make_player, 5)
    host.pbp(
        "new-game",
        "--ruleset",
        "infiltration",
        "--roster",
        str(write_roster(tmp_path, players)),
        "--seed",
        "5",
        "--id",
        "g1",
        "--schedule",
        "default=1h",
        "--option",
        "reminders=off",
    )
    host.pbp("poll")  # the welcomes, each with its form
    return host, players


def orders_mail(host: Host, name: str, box, authentication: str) -> bytes:
    """A player's filled-in form, as the trusted server stored it: its trace and
    authentication headers on top of what the sender wrote (`authentication` is raw
    header lines, in order)."""
    welcome = box.read_new(at_least=1, timeout=30)[-1]
    rules = engine.ruleset("infiltration")
    orders = rules.scripted_orders(rules.from_json(host.record("g1")["state"]), name, "5")
    body = filled_reply_text(mail_text(welcome), orders, quote=False)
    return (
        (
            f"Return-Path: <{box.address}>\r\n{authentication}"
            f"From: {box.address}\r\nTo: {welcome['From']}\r\nSubject: Re: {welcome['Subject']}\r\n"
            f"Message-ID: <orders-{box.address}>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            f"{body}"
        )
        .replace("\n", "\r\n")
        .replace("\r\r\n", "\r\n")
        .encode()
    )


def received(by: str) -> str:
    return f"Received: from mail.example.org (mail.example.org [192.0.2.7])\r\n\tby {by}; Mon, 30 Nov 2026 10:00:00 +0000\r\n"


def judged(host: Host, mail_server, box, raw: bytes) -> tuple[list, str]:
    """Deliver, poll, and return (accepted orders of this player, the reply's text)."""
    mail_server.deliver_raw(host.address, raw)
    host.pbp("poll")
    reply = box.read_new(at_least=1, timeout=30)
    assert reply, "no answer reached the roster address"
    return host.table("g1", "orders"), mail_text(reply[-1])


def test_a_genuine_dmarc_pass_from_the_trusted_server_lets_the_orders_in(game, mail_server):
    host, players = game
    name, box = players[0]
    raw = orders_mail(
        host,
        name,
        box,
        f"Authentication-Results: {TRUSTED};\r\n\tdkim=pass header.d=example.org;\r\n"
        f"\tspf=pass smtp.mailfrom={box.address};\r\n\tdmarc=pass header.from=example.org\r\n"
        + received(TRUSTED),
    )
    orders, reply = judged(host, mail_server, box, raw)
    assert [row["player"] for row in orders] == [name], reply
    assert "Accepted for Turn 0 — class choice" in reply


def test_dmarc_fail_is_refused_whatever_the_token(game, mail_server):
    host, players = game
    name, box = players[1]
    raw = orders_mail(
        host,
        name,
        box,
        f"Authentication-Results: {TRUSTED}; dmarc=fail (p=reject) header.from=example.org\r\n"
        + received(TRUSTED),
    )
    orders, reply = judged(host, mail_server, box, raw)
    assert orders == []
    assert (
        "A mail from your address was not accepted: the receiving mail server found that it fails DMARC "
        "for example.org, so it may be forged." in " ".join(reply.split())
    )
    rejected = mail_server.messages(host.address, "rejected")
    assert [str(m["Message-ID"]) for m in rejected] == [f"<orders-{box.address}>"]


def test_a_forged_pass_below_the_trusted_header_is_ignored(game, mail_server):
    host, players = game
    name, box = players[2]
    forged = f"Authentication-Results: {TRUSTED}; dmarc=pass header.from=example.org; dkim=pass header.d=example.org\r\n"
    raw = orders_mail(
        host,
        name,
        box,
        f"Authentication-Results: {TRUSTED}; dmarc=none header.from=example.org;\r\n"
        f"\tspf=fail smtp.mailfrom={box.address}; dkim=none\r\n"
        + received(TRUSTED)
        + received("mail.example.org")
        + forged,
    )
    orders, reply = judged(host, mail_server, box, raw)
    assert orders == []
    assert "neither SPF nor DKIM passed for example.org" in " ".join(reply.split())


def test_without_dmarc_an_aligned_dkim_pass_is_enough(game, mail_server):
    host, players = game
    name, box = players[3]
    # OpenDMARC's header above OpenDKIM's, both the trusted server's, adjacent.
    raw = orders_mail(
        host,
        name,
        box,
        f"Authentication-Results: {TRUSTED}; dmarc=none (p=none) header.from=example.org\r\n"
        f"Authentication-Results: {TRUSTED}; dkim=pass (2048-bit key) header.d=example.org\r\n"
        + received(TRUSTED),
    )
    orders, _reply = judged(host, mail_server, box, raw)
    assert [row["player"] for row in orders] == [name]


def test_mail_with_only_a_forged_header_from_another_server_is_refused(game, mail_server):
    host, players = game
    name, box = players[4]
    raw = orders_mail(
        host,
        name,
        box,
        received(TRUSTED)
        + f"Authentication-Results: {TRUSTED}; dmarc=pass header.from=example.org\r\n".replace(
            TRUSTED, "mx.elsewhere.example", 1
        ),
    )
    orders, reply = judged(host, mail_server, box, raw)
    assert orders == []
    assert f"no authentication results from the receiving mail server ({TRUSTED})" in " ".join(
        reply.split()
    )
