"""Session-wide real mail servers on loopback (see tests/fixtures/mailserver.py).

Fixtures:
- `dovecot`: one Dovecot per test session (IMAP and IMAPS); `dovecot.add_user(address,
  password)`, `dovecot.new_address(name)`, `dovecot.deliver_raw(address, bytes)`,
  `dovecot.count(address, folder)`, `dovecot.messages(address, folder)`.
- `mail_server`: the same Dovecot, with the SMTP server's scripted answers reset.
- `smtp_server`: aiosmtpd delivering into Dovecot over LMTP.
- `make_player(name)`: a new user with a real mailbox, as a `Player` (read_new, reply, send).
"""
from __future__ import annotations

import pytest

from tests.fixtures.mailserver import Dovecot, Player, SmtpServer


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
