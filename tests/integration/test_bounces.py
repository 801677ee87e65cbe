"""Bounces over the real servers: the SMTP server accepts mail for a remote address that
does not exist and returns a delivery status notification to pbp's inbox, as a relay
does; pbp matches it to the player, never answers it, tells the host once per address,
and flags the player in `pbp status` after a second bounce (pbp.desk.bounces)."""

from __future__ import annotations

import re

import pytest

from tests.fixtures.mailserver import delivery_status_notification
from tests.fixtures.harness import Host, make_players, write_roster

pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


@pytest.fixture
def game(tmp_path, mail_server, smtp_server, make_player):
    host = Host(
        tmp_path, mail_server, smtp_server, mail_server.add_user(mail_server.new_address("pbp"))
    )
    host.write_settings()
    host_box = make_player("host")
    with open(host.settings, "a", encoding="utf-8") as settings:
        settings.write(f"\n[forum]\nhost_address = {host_box.address}\n")
    players = make_players(make_player, 5)
    ghost_name = players[2][0]
    ghost = mail_server.new_address("typo", domain="remote.example")
    smtp_server.bounce_later(ghost)
    roster = [(name, box) for name, box in players]
    roster_path = write_roster(tmp_path, roster)
    roster_path.write_text(roster_path.read_text().replace(players[2][1].address, ghost))
    host.pbp(
        "new-game",
        "--ruleset",
        "infiltration",
        "--roster",
        str(roster_path),
        "--seed",
        "3",
        "--id",
        "g1",
        "--schedule",
        "default=1h",
        "--option",
        "reminders=off",
    )
    return host, host_box, ghost_name, ghost


def bounce_line(status: str, name: str) -> str:
    found = [
        line for line in status.splitlines() if line.strip().startswith(f"BOUNCED: mail to {name} ")
    ]
    assert len(found) == 1, status
    return found[0]


def test_a_dsn_for_an_unknown_recipient_is_matched_to_the_player_and_flagged_after_two(
    game, mail_server, smtp_server
):
    host, host_box, ghost_name, ghost = game
    done = host.pbp(
        "poll"
    )  # sends the welcomes; the relay bounces the ghost's; this poll reads the DSN
    assert "Mail read: 1 judged" in done.stdout, done.stdout
    dsns = [
        m
        for m in mail_server.messages(host.address, "rejected")
        if m.get_content_type() == "multipart/report"
    ]
    assert len(dsns) == 1  # filed, not answered
    line = bounce_line(host.pbp("status").stdout, ghost_name)
    assert f"<{ghost}> bounced once" in line and "FLAGGED" not in line
    notices = [
        m for m in host_box.read_new(at_least=1, timeout=30) if "bounced" in str(m["Subject"])
    ]
    assert [str(m["Subject"]) for m in notices] == [f"[g1] Mail to {ghost_name} bounced"]

    host.pbp("advance", "g1")  # the reports go out, the ghost's bounces again
    host.pbp("poll")
    line = bounce_line(host.pbp("status").stdout, ghost_name)
    assert f"<{ghost}> bounced 2 times" in line
    assert re.search(rf"FLAGGED: substitute them with `pbp substitute g1 {ghost_name} ", line)
    assert not [
        m for m in host_box.read_new(at_least=0, timeout=0) if "bounced" in str(m["Subject"])
    ]  # once per address
    answered = [
        d for d in smtp_server.delivered if any("mailer-daemon" in r.lower() for r in d.recipients)
    ]
    assert answered == []  # nothing went to the mail system that bounced


def test_a_dsn_naming_another_address_is_matched_by_the_original_message_id(game, mail_server):
    host, _host_box, ghost_name, ghost = game
    host.pbp("poll")
    welcome = next(row for row in host.table("g1", "outbox") if row["recipient"] == ghost_name)
    original = (
        f"From: pbp <{host.address}>\r\nTo: {ghost}\r\nMessage-ID: {welcome['message_id']}\r\n"
        f"Subject: {welcome['subject']}\r\n\r\nbody\r\n"
    ).encode()
    # The player's provider forwarded the mail to an address that no longer exists.
    mail_server.deliver_lmtp(
        host.address,
        delivery_status_notification(
            host.address, "old-forward@elsewhere.example", original, "[192.0.2.1]"
        ),
        "<>",
    )
    host.pbp("poll")
    assert f"<{ghost}> bounced 2 times" in bounce_line(host.pbp("status").stdout, ghost_name)
