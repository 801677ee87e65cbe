"""No secret reaches `pbp run`'s log, in any event (pbp.daemon.logs; docs/design.md: Running pbp
as a service). The daemon runs at `log_level = debug` (the libraries' lines too) over the
real servers and is driven through its events: OAuth2 logins over IMAP and SMTP with the
local provider, access tokens the provider ends early, mail the SMTP server refuses for a
while, mail with a wrong token and mail that is not mail at all, a refresh token the
provider no longer accepts, and an IMAP password the server refuses. Every line of the log
is then searched for every secret: the OAuth2 client secret, each refresh and access
token, the passwords, the players' tokens, also inside base64 words (a SASL exchange).
Each step waits for the event to show (in the log, the outbox or the provider), never for
a delay."""

from __future__ import annotations

import base64
import binascii
import re
import signal

import pytest

from pbp.mail.sign_in.oauth import save_refresh_token
from tests.fixtures.harness import (
    Host,
    imap_over_tls,
    make_players,
    plain_smtp,
    stop,
    wait_all_sent,
    wait_for,
)


pytestmark = [
    pytest.mark.integration,
    pytest.mark.timeout(300),
    pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS"),
]  # loopback only

BASE64_WORD = re.compile(r"[A-Za-z0-9+/=_-]{16,}")


def leaks(log: str, secrets: set[str]) -> list[str]:
    """The log's lines holding a secret, plainly or inside a base64 word."""
    found = []
    for line in log.splitlines():
        decoded = []
        for word in BASE64_WORD.findall(line):
            try:
                decoded.append(
                    base64.b64decode(word + "=" * (-len(word) % 4)).decode("utf-8", "replace")
                )
            except (binascii.Error, ValueError):
                pass
        if any(secret in text for secret in secrets for text in [line, *decoded]):
            found.append(line)
    return found


@pytest.fixture
def issued_tokens(oauth_server):
    """Every access token the provider hands out during the test."""
    tokens: list[str] = []
    issue = oauth_server._issue

    def keeping(user, refresh_token=None):
        answer = issue(user, refresh_token)
        tokens.append(answer["access_token"])
        return answer

    oauth_server._issue = keeping
    yield tokens
    oauth_server._issue = issue


def test_no_oauth_secret_or_token_reaches_the_log_in_any_event(
    tmp_path, oauth_server, oauth_dovecot, oauth_smtp, issued_tokens
):
    address = oauth_dovecot.add_user(
        oauth_dovecot.new_address("pbp"), password="unused-imap-password-7f3a"
    )
    players = [
        (name, oauth_dovecot.add_user(oauth_dovecot.new_address(name.lower()), password="p-9c1e"))
        for name, _ in make_players(lambda name: None, 5)
    ]
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\n" + "".join(f"{name},{mail}\n" for name, mail in players))
    host = Host(tmp_path, oauth_dovecot, oauth_smtp, address)
    host.write_settings(
        {
            "pbp": {
                "data": "data",
                "transport": "imap",
                "from_address": address,
                "poll_interval": 0.5,
                "log_level": "debug",
            },
            "imap": imap_over_tls(oauth_dovecot, address, login="xoauth2", idle="off"),
            "smtp": plain_smtp(oauth_smtp, user=address, login="xoauth2"),
            "oauth": {
                "provider": "generic",
                "token_endpoint": f"{oauth_server.url}/token",
                "client_id": oauth_server.client_id,
                "client_secret_file": "client-secret.txt",
                "scope": "mail",
            },
        }
    )
    (tmp_path / "client-secret.txt").write_text(oauth_server.client_secret + "\n")
    refresh_token = oauth_server.grant(address)
    save_refresh_token(tmp_path / "data" / "oauth-refresh-token", refresh_token)
    host.pbp(
        "new-game",
        "--ruleset",
        "infiltration",
        "--roster",
        str(roster),
        "--seed",
        "8",
        "--schedule",
        "default=1h",
        "--id",
        "g1",
        "--option",
        "reminders=off",
        "--no-send",
    )
    oauth_smtp.answer_next_data(
        "451 4.3.0 Try again later", count=2
    )  # the first welcomes wait for a retry
    process = host.start_run()
    try:
        wait_all_sent(host, "g1", timeout=120)  # logged in with OAuth2 over IMAP and SMTP; retried
        tokens = host.record("g1")["tokens"]
        wait_for(lambda: "to retry" in host.log(), 30, "no retry was logged", host)
        sent_orders = []

        def wrong_token_mail() -> None:
            """Orders with a wrong token: read over IMAP, answered over a new SMTP connection."""
            sent_orders.append(f"<orders-{len(sent_orders)}@example.org>")
            oauth_dovecot.deliver_raw(
                address,
                (
                    f"From: {players[len(sent_orders)][1]}\r\nTo: {address}\r\nSubject: orders {len(sent_orders)}\r\n"
                    f"Message-ID: {sent_orders[-1]}\r\n\r\n"
                    "BEGIN ORDERS g1 T0-class\r\nTOKEN: not-the-token\r\nEND ORDERS\r\n"
                ).encode(),
            )

        wrong_token_mail()
        oauth_dovecot.deliver_raw(address, b"\x00\xff\xfe garbage\r\n\r\n\x00")  # no mail at all
        wait_for(lambda: oauth_dovecot.count(address) == 0, 60, "the mails were not read", host)
        issued = len(issued_tokens)
        oauth_server.expire_access_tokens()  # the provider ends the tokens early: pbp refreshes
        wrong_token_mail()
        wait_for(lambda: len(issued_tokens) > issued, 60, "no new access token was fetched", host)
        with oauth_server.lock:  # the host revoked pbp's access at the provider
            oauth_server.refresh_tokens.pop(refresh_token)
        oauth_server.expire_access_tokens()
        wrong_token_mail()
        wait_for(
            lambda: "refused the refresh token" in host.log(),
            60,
            "the refused refresh was not logged",
            host,
        )
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        stop(process)
    log = host.log()
    assert " DEBUG game=" in log and " WARNING game=g1 sending failed: <pbp.g1." in log, log[-3000:]
    secrets = {
        oauth_server.client_secret,
        refresh_token,
        "unused-imap-password-7f3a",
        "p-9c1e",
        *issued_tokens,
        *tokens.values(),
    }
    assert issued_tokens and not leaks(log, secrets), leaks(log, secrets)


def test_no_password_reaches_the_log_when_the_servers_refuse_it(tmp_path, mail_server, smtp_server):
    address = mail_server.add_user(mail_server.new_address("pbp"))
    host = Host(tmp_path, mail_server, smtp_server, address)
    wrong = "wrong-password-5e2d81"
    sections = host.sections()
    sections["pbp"]["log_level"] = "debug"
    sections["smtp"]["password"] = f"{wrong}-smtp"
    host.write_settings(sections)
    (tmp_path / "imap-password.txt").write_text(wrong + "\n")
    process = host.start_run()
    try:
        wait_for(lambda: "cycle failed" in host.log(), 60, "the refused login was not logged", host)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    finally:
        stop(process)
    log = host.log()
    assert "ERROR" in log and not leaks(log, {wrong}), leaks(log, {wrong})
