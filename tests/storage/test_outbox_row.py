"""An outbox row read past the storage edge is an `OutboxRow` (docs/design.md: Typed rows):
what the queue stores comes back unchanged through `from_row` and `to_row`, so typing the
rows changed nothing on disk, and the readers (`pbp status`, the index of wake-ups, the
sending loop) read its fields, not its keys."""

from __future__ import annotations

from pbp.game.create import create_game
from pbp.game.index_entry import entry_of
from pbp.ports import RenderedMail, TransientSendError
from pbp.storage.outbox import OutboxRow, outbox_briefs, outbox_rows
from pbp.daemon.outbox_sending import send_due
from pbp.timezones import as_utc
from tests.fixtures.harness import ROSTER


def test_every_stored_row_comes_back_unchanged_through_the_typed_row(moderator):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    file = moderator.folder.game(game.id)
    with file.transaction():
        moderator.outbox.queue(
            file,
            phase="D1-vote",
            recipient="Host",
            address="host@example.org",
            kind="note",
            mail=RenderedMail("[g] note", "text"),
            in_reply_to="<a@example.org>",
            references=["<a@example.org>"],
            sequence_key="host",
        )
    stored = [dict(row) for row in file.outbox.all()]
    assert len(stored) == 5 and "sequence_of" in stored[-1]
    assert [OutboxRow.from_row(row).to_row() for row in stored] == stored
    typed = outbox_rows(file)
    assert [row.recipient for row in typed] == [entry.name for entry in ROSTER] + ["Host"]
    assert typed[-1].in_reply_to == "<a@example.org>" and typed[-1].references == (
        "<a@example.org>",
    )
    assert all(row.queued and row.body for row in typed)
    assert all(row.body == "" and row.queued for row in outbox_briefs(file))  # a brief has no texts


def test_a_retry_time_is_read_from_the_typed_row(moderator, sender):
    """The index's next wake-up for a mail that failed for now is its row's `next_attempt`."""
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    sender.failures = [TransientSendError("421 try later")]
    assert send_due(moderator.outbox, sender).retrying == 1
    file = moderator.folder.game(game.id)
    (waiting,) = [row for row in outbox_briefs(file) if row.queued]
    assert waiting.attempts == 1 and waiting.error == "421 try later" and waiting.next_attempt
    assert entry_of(file).retry_at == as_utc(waiting.next_attempt).timestamp()
