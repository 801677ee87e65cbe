"""A moderator running its own cycle against the real mail servers (Dovecot over IMAP,
aiosmtpd delivering into Dovecot), with a clock the test moves, a host mailbox, and
mailboxes for players who sign up by mail."""

from __future__ import annotations

import pytest

from pbp.composition import ComposedModerator
from pbp.daemon.cycle import Cycle
from pbp.settings import load_settings
from pbp.mail.transport import open_mailbox, open_sender
from tests.fixtures.clocks import Clock
from tests.fixtures.harness import plain_smtp, write_settings
from tests.fixtures.text import flat


class Site:
    def __init__(self, root, mail_server, smtp_server, make_player):
        root.mkdir(parents=True, exist_ok=True)
        self.address = mail_server.add_user(
            mail_server.new_address("moderator", "pbp.test"), "modpass"
        )
        self.host = make_player("host")
        (root / "imap-password.txt").write_text("modpass\n")
        write_settings(
            root / "pbp.ini",
            {
                "pbp": {
                    "data": root / "data",
                    "transport": "imap",
                    "from_address": self.address,
                    "replies_per_sender_per_day": 1000,
                },
                "imap": {
                    "host": mail_server.host,
                    "port": mail_server.imap_port,
                    "security": "none",
                    "user": self.address,
                    "password_file": root / "imap-password.txt",
                },
                "smtp": plain_smtp(smtp_server),
                "forum": {"host_address": self.host.address},
            },
        )
        self.settings = load_settings(str(root / "pbp.ini"))
        self.clock = Clock()
        self.moderator = ComposedModerator(self.settings, clock=self.clock)
        self.cycle = Cycle(self.moderator, open_mailbox(self.settings), open_sender(self.settings))
        self.make_player = make_player

    def turn(self):
        return self.cycle.turn()

    def close(self):
        self.cycle.close()
        self.moderator.close()


@pytest.fixture
def site(tmp_path, mail_server, smtp_server, make_player):
    made = Site(tmp_path / "site", mail_server, smtp_server, make_player)
    yield made
    made.close()


def text(message) -> str:
    """A mail's text with its lines joined (pbp wraps prose at 72 columns): what a test
    looks for is a sentence, wherever the lines break."""
    return flat(message.get_body(("plain",)).get_content())
