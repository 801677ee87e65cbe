"""Session-wide real mail servers on loopback (see tests/fixtures/mailserver.py).

Fixtures:
- `dovecot`: one Dovecot per test session (IMAP and IMAPS); `dovecot.add_user(address,
  password)`, `dovecot.new_address(name)`, `dovecot.deliver_raw(address, bytes)`,
  `dovecot.count(address, folder)`, `dovecot.messages(address, folder)`.
- `mail_server`: the same Dovecot, with the SMTP server's scripted answers reset.
- `smtp_server`: aiosmtpd delivering into Dovecot over LMTP.
- `make_player(name)`: a new user with a real mailbox, as a `Player` (read_new, reply, send).
- `oauth_server`, `oauth_dovecot`, `oauth_smtp`: a local OAuth2 provider and a Dovecot and an
  SMTP server that accept its tokens (tests/fixtures/oauth_server.py), one set per module.

The moderator kit's fixtures (`clock`, `sender`, `moderator` on the toy Ballot ruleset) come
from tests/fixtures/harness.py, registered here for every folder.
"""

from __future__ import annotations

import os

import pytest

from tests.fixtures.mailserver import Dovecot, Player, SmtpServer
from tests.fixtures.oauth_server import OAuthServer

pytest_plugins = ("tests.fixtures.harness",)


@pytest.fixture(scope="session", autouse=True)
def balance_note_cache(tmp_path_factory):
    """`pbp new-game` keeps its balance notes in the host's cache folder; the tests keep
    theirs in a folder of the session's own, outside the home folder."""
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def dovecot():
    server = Dovecot()
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="session")
def smtp_server(dovecot):
    server = SmtpServer(dovecot).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def mail_server(dovecot, smtp_server):
    smtp_server.reset()
    yield dovecot
    smtp_server.reset()


@pytest.fixture
def make_player(mail_server, smtp_server):
    def make(name: str = "player", password: str = "secret") -> Player:
        address = mail_server.add_user(mail_server.new_address(name), password)
        return Player(address, mail_server, smtp_server)

    return make


@pytest.fixture(scope="module")
def oauth_server():
    server = OAuthServer().start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def oauth_dovecot(oauth_server):
    server = Dovecot(introspection_url=f"{oauth_server.url}/introspect")
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


@pytest.fixture(scope="module")
def oauth_smtp(oauth_dovecot, oauth_server):
    server = SmtpServer(oauth_dovecot, introspection_url=f"{oauth_server.url}/introspect").start()
    try:
        yield server
    finally:
        server.stop()
