"""OAuth2 logins over the real servers: Dovecot's `oauth2` passdb and aiosmtpd's XOAUTH2 /
OAUTHBEARER check both ask the local provider's introspection endpoint; pbp's token
source gets access tokens from that provider's token endpoint with authlib (pbp.mail.sign_in.oauth)."""

from __future__ import annotations

import stat
from email.message import EmailMessage

import pytest

from pbp.mail.imap.mailbox import ImapMailbox
from pbp.mail.sign_in.oauth import OAuthTrouble, TokenSource, save_refresh_token
from pbp.mail.smtp import SmtpSender
from pbp.ports import TransientSendError
from pbp.settings import OAuthSettings

pytestmark = [
    pytest.mark.integration,
    pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS"),
]  # loopback only


def oauth_settings(server) -> OAuthSettings:
    return OAuthSettings(
        token_endpoint=f"{server.url}/token",
        client_id=server.client_id,
        client_secret=server.client_secret,
        scope="mail",
    )


@pytest.fixture
def account(tmp_path, oauth_server, oauth_dovecot):
    """A mailbox user whose refresh token is stored as `pbp auth` stores it."""
    address = oauth_dovecot.add_user(oauth_dovecot.new_address("host"), password="not-used-here")
    path = tmp_path / "oauth-refresh-token"
    save_refresh_token(path, oauth_server.grant(address))
    return address, path


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def mailbox(dovecot, address, tokens, login) -> ImapMailbox:
    return ImapMailbox(
        dovecot.host,
        dovecot.imaps_port,
        "tls",
        address,
        "",
        ssl_context=dovecot.client_ssl_context(),
        login=login,
        token_source=tokens,
    )


def letter(sender: str, recipient: str, subject: str) -> EmailMessage:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, recipient, subject
    message.set_content("hello")
    return message


def test_the_refresh_token_file_is_the_hosts_alone(account):
    _address, path = account
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@pytest.mark.parametrize("login", ["xoauth2", "oauthbearer"])
def test_imap_logs_in_with_an_access_token_and_refreshes_when_the_server_refuses_it(
    account, oauth_server, oauth_dovecot, login
):
    address, path = account
    oauth_dovecot.deliver_raw(address, b"From: a@example.org\r\nSubject: one\r\n\r\nbody\r\n")
    tokens = TokenSource(oauth_settings(oauth_server), path)
    box = mailbox(oauth_dovecot, address, tokens, login)
    try:
        assert len(box.fetch_new(10)) == 1
        assert tokens.refreshes == 1
        box.close()
        oauth_server.expire_access_tokens()  # the provider ended the token early
        refused_before = oauth_server.refused_introspections
        assert len(box.fetch_new(10)) == 1  # a new connection: refused once, refreshed, logged in
        assert oauth_server.refused_introspections == refused_before + 1
        assert tokens.refreshes == 2
    finally:
        box.close()


def test_a_token_is_refreshed_before_it_expires_without_a_refused_login(
    account, oauth_server, oauth_dovecot
):
    address, path = account
    clock = Clock()
    tokens = TokenSource(oauth_settings(oauth_server), path, clock=clock, margin=300)
    first = tokens.access_token()
    clock.now += oauth_server.expires_in - 301
    assert tokens.access_token() == first and tokens.refreshes == 1
    clock.now += 2  # inside the margin: refreshed ahead of the expiry
    second = tokens.access_token()
    assert second != first and tokens.refreshes == 2
    box = mailbox(oauth_dovecot, address, tokens, "xoauth2")
    refused_before = oauth_server.refused_introspections
    try:
        box.fetch_new(10)
    finally:
        box.close()
    assert oauth_server.refused_introspections == refused_before


@pytest.mark.parametrize("login", ["xoauth2", "oauthbearer"])
def test_smtp_sends_with_an_access_token_and_refreshes_when_the_server_refuses_it(
    account, oauth_server, oauth_dovecot, oauth_smtp, login
):
    address, path = account
    friend = oauth_dovecot.add_user(oauth_dovecot.new_address("friend"))
    tokens = TokenSource(oauth_settings(oauth_server), path)
    sender = SmtpSender(
        oauth_smtp.host, oauth_smtp.port, "none", address, login=login, token_source=tokens
    )
    try:
        sender.send(letter(address, friend, "first"))
        sender.close()
        oauth_server.expire_access_tokens()
        sender.send(letter(address, friend, "second"))
    finally:
        sender.close()
    assert [m["Subject"] for m in oauth_dovecot.messages(friend)] == ["first", "second"]
    assert oauth_smtp.logins[-2:] == [(address, False), (address, True)]
    assert tokens.refreshes == 2


def test_a_revoked_refresh_token_tells_the_host_to_run_pbp_auth(
    tmp_path, oauth_server, oauth_dovecot, oauth_smtp
):
    address = oauth_dovecot.add_user(oauth_dovecot.new_address("host"))
    path = tmp_path / "token"
    save_refresh_token(path, "rt-not-issued-by-this-provider")
    tokens = TokenSource(oauth_settings(oauth_server), path)
    with pytest.raises(OAuthTrouble, match="run `pbp auth`") as refused:
        tokens.access_token()
    assert "rt-not-issued" not in str(refused.value)
    sender = SmtpSender(
        oauth_smtp.host, oauth_smtp.port, "none", address, login="xoauth2", token_source=tokens
    )
    with pytest.raises(TransientSendError, match="pbp auth"):
        sender.send(letter(address, address, "never sent"))


def test_a_missing_refresh_token_file_says_what_to_do(tmp_path, oauth_server):
    with pytest.raises(OAuthTrouble, match=r"No OAuth2 refresh token at .*; run `pbp auth`"):
        TokenSource(oauth_settings(oauth_server), tmp_path / "absent").access_token()


def test_a_rotated_refresh_token_is_kept_for_the_next_refresh(account, oauth_server):
    address, path = account
    oauth_server.rotate_refresh_tokens = True
    try:
        before = path.read_text().strip()
        TokenSource(oauth_settings(oauth_server), path).access_token()
        after = path.read_text().strip()
        assert after != before and oauth_server.refresh_tokens[after] == address
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        TokenSource(
            oauth_settings(oauth_server), path
        ).access_token()  # the old one is gone; the new one works
    finally:
        oauth_server.rotate_refresh_tokens = False


def test_an_oauth_login_holds_for_a_batch_and_is_made_again_when_the_server_hangs_up(
    account, oauth_server, oauth_dovecot, oauth_smtp
):
    """Five letters over connections the server closes after every second message: each
    new connection logs in with the token again, and every letter arrives once."""
    address, path = account
    friend = oauth_dovecot.add_user(oauth_dovecot.new_address("friend"))
    tokens = TokenSource(oauth_settings(oauth_server), path)
    sender = SmtpSender(
        oauth_smtp.host, oauth_smtp.port, "none", address, login="xoauth2", token_source=tokens
    )
    logins_before, oauth_smtp.connections, oauth_smtp.messages_per_connection = (
        len(oauth_smtp.logins),
        0,
        2,
    )
    try:
        for number in range(5):
            sender.send(letter(address, friend, f"letter {number}"))
    finally:
        sender.close()
        oauth_smtp.messages_per_connection = 0
    assert [m["Subject"] for m in oauth_dovecot.messages(friend)] == [
        f"letter {number}" for number in range(5)
    ]
    assert oauth_smtp.connections == 3
    assert oauth_smtp.logins[logins_before:] == [(address, True)] * 3
    assert tokens.refreshes == 1  # the token is reused, not fetched again per connection
