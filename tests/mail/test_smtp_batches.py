"""One SMTP connection per batch of outbox rows, and a new one when the server hangs up
(docs/design.md: Reliability rules — Outbox), against aiosmtpd delivering into Dovecot."""

from __future__ import annotations

import pytest

from pbp.game.create import create_game
from pbp.mail.smtp import SmtpSender
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings
from tests.fixtures.clocks import Clock
from tests.fixtures.harness import ToyModerator
from pbp.daemon.outbox_sending import send_due

pytestmark = pytest.mark.integration


@pytest.fixture
def moderator(tmp_path):
    settings = Settings(data=tmp_path / "data", from_address="pbp@games.example")
    with ToyModerator(settings, clock=Clock()) as mod:
        yield mod


def game_with_welcomes(moderator, make_player, players: int):
    """A game of `players` real mailbox users: one queued welcome row each."""
    roster = [
        RosterPlayer(f"P{number}", make_player(f"p{number}").address) for number in range(players)
    ]
    game = create_game(moderator, "ballot", roster, seed="s")
    return roster, moderator.folder.game(game.id).outbox


def delivered_ids(smtp_server) -> list[str]:
    return [
        message.data.split(b"Message-ID: ", 1)[1].split(b"\r\n", 1)[0].decode()
        for message in smtp_server.delivered
    ]


def test_a_batch_of_fifty_mails_goes_over_one_connection(
    moderator, make_player, smtp_server, mail_server
):
    roster, ledger = game_with_welcomes(moderator, make_player, 50)
    smtp_server.delivered.clear()
    sender = SmtpSender(smtp_server.host, smtp_server.port, "none")
    summary = send_due(moderator.outbox, sender)
    assert (summary.sent, summary.retrying, summary.failed) == (50, 0, 0)
    assert smtp_server.connections == 1
    assert sender._client is None  # closed at the end of the batch
    assert sorted(delivered_ids(smtp_server)) == sorted(row["message_id"] for row in ledger.all())
    assert [mail_server.count(entry.email) for entry in (roster[0], roster[-1])] == [1, 1]


def test_a_server_that_hangs_up_every_twenty_messages_still_gets_each_mail_once(
    moderator, make_player, smtp_server, mail_server
):
    """The connection closes right after the 20th and the 40th message: pbp notices at the
    next row, opens a new connection and sends that same row; nothing is lost or doubled."""
    roster, ledger = game_with_welcomes(moderator, make_player, 50)
    smtp_server.delivered.clear()
    smtp_server.messages_per_connection = 20
    summary = send_due(moderator.outbox, SmtpSender(smtp_server.host, smtp_server.port, "none"))
    assert (summary.sent, summary.retrying, summary.failed, summary.errors) == (50, 0, 0, [])
    assert smtp_server.connections == 3
    ids = delivered_ids(smtp_server)
    assert len(ids) == 50 and sorted(ids) == sorted(row["message_id"] for row in ledger.all())
    assert {row["status"] for row in ledger.all()} == {"sent"}
    assert [mail_server.count(entry.email) for entry in roster[19:22]] == [1, 1, 1]


def test_a_new_batch_opens_a_new_connection(moderator, make_player, smtp_server):
    game_with_welcomes(moderator, make_player, 3)
    sender = SmtpSender(smtp_server.host, smtp_server.port, "none")
    assert send_due(moderator.outbox, sender).sent == 3
    game_with_welcomes(moderator, make_player, 3)
    assert send_due(moderator.outbox, sender).sent == 3
    assert smtp_server.connections == 2
