"""The outbox ledger (docs/design.md: Reliability rules, Outbox): a row before every mail, a
deterministic Message-ID, one recipient per message, retries with backoff, permanent
failures shown to the host, and a restart resends only unsent rows."""

from __future__ import annotations

import re

from pbp.game.create import create_game
from pbp.game.resolution import resolve_phase
from pbp.storage.outbox import Outbox
from pbp.ports import PermanentSendError, TransientSendError
from pbp.host.status import status_text
from tests.fixtures.harness import ROSTER, MemorySender
from pbp.daemon.outbox_sending import RETRY, build as outbox_mail, send_due


def rows(moderator, game_id):
    return moderator.folder.game(game_id).outbox.all()


def test_welcomes_are_ledger_rows_then_one_message_per_recipient(moderator, sender):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    assert [r["status"] for r in rows(moderator, game.id)] == ["queued"] * 4
    summary = send_due(moderator.outbox, sender)
    assert summary.sent == 4
    assert [r["status"] for r in rows(moderator, game.id)] == ["sent"] * 4
    for message, entry in zip(sender.sent, ROSTER):
        assert message.get_all("To") == [f"{entry.name} <{entry.email}>"]
        assert message["Auto-Submitted"] == "auto-generated"
        assert game.record.tokens[entry.name] in message.get_content()
        for other in ROSTER:
            if other is not entry:
                assert other.email not in message.as_string()
    assert send_due(moderator.outbox, sender).sent == 0


def test_message_ids_are_deterministic(moderator, sender):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    ids = [r["message_id"] for r in rows(moderator, game.id)]
    assert len(set(ids)) == 4
    assert re.fullmatch(
        rf"<pbp\.{game.id}\.D1-vote\.welcome\.[0-9a-f]{{20}}@games\.example>", ids[0]
    )
    send_due(moderator.outbox, sender)
    assert [m["Message-ID"] for m in sender.sent] == ids


def test_transient_failures_retry_with_backoff(moderator, sender, clock):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    sender.failures = [TransientSendError("421 try later")]
    first = send_due(moderator.outbox, sender)
    assert (first.sent, first.retrying) == (3, 1)
    waiting = [r for r in rows(moderator, game.id) if r["status"] == "queued"]
    assert waiting[0]["attempts"] == 1 and "421" in waiting[0]["error"]
    assert send_due(moderator.outbox, sender).sent == 0  # not yet due
    clock.advance(seconds=RETRY.seconds(1))
    assert send_due(moderator.outbox, sender).sent == 1
    assert (
        RETRY.seconds(2) == 2 * RETRY.seconds(1)
        and RETRY.seconds(30) == RETRY.seconds(4000) == RETRY.longest
    )


def test_permanent_failures_are_recorded_and_shown(moderator, sender):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    sender.failures = [PermanentSendError("550 no such user")]
    summary = send_due(moderator.outbox, sender)
    assert (summary.sent, summary.failed) == (3, 1)
    assert "FAILED welcome to Alice (D1-vote): 550 no such user" in status_text(
        moderator.folder, game.id
    )
    assert send_due(moderator.outbox, sender).sent == 0


def test_a_restart_resends_only_unsent_rows(moderator, clock):
    """Two rows are sent and marked, then the process "dies"; a fresh Outbox over the
    same files sends exactly the two others."""
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    file = moderator.folder.game(game.id)
    first = MemorySender()
    for row in rows(moderator, game.id)[:2]:
        first.send(outbox_mail(moderator.outbox, row))
        file.outbox.update({"status": "sent"}, doc_ids=[row.doc_id])
    restarted = Outbox(moderator.folder, "pbp@games.example", clock=clock)
    rest = MemorySender()
    assert send_due(restarted, rest).sent == 2
    assert sorted(m["To"] for m in first.sent + rest.sent) == sorted(
        f"{e.name} <{e.email}>" for e in ROSTER
    )


def test_reports_carry_the_public_summary_and_the_next_form(moderator, sender):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    resolve_phase(moderator, game.id)
    send_due(moderator.outbox, sender)
    reports = sender.sent[4:]
    assert len(reports) == 4
    for message in reports:
        text = message.get_content()
        assert "What happened in D1-vote:" in text and "eliminated" in text
        assert message["Auto-Submitted"] == "auto-generated"
    alive = [m for m in reports if "BEGIN ORDERS bal1 D2-vote" in m.get_content()]
    assert len(alive) == 3  # the eliminated player has no form
    for message in alive:
        assert message.get_content().rstrip().endswith("END ORDERS")


def test_a_row_that_cannot_be_built_fails_alone_and_is_shown(moderator, sender):
    """Design.md: Hostile input — "One bad outgoing row … never stops the cycle for the
    others: it is marked failed, shown in `pbp status`, and the rest go on"."""
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    file = moderator.folder.game(game.id)
    poisoned = rows(moderator, game.id)[1]
    file.outbox.update({"address": "bruno\x0c@example.org"}, doc_ids=[poisoned.doc_id])
    summary = send_due(moderator.outbox, sender)
    assert (summary.sent, summary.failed) == (3, 1)
    assert [r["status"] for r in rows(moderator, game.id)] == ["sent", "failed", "sent", "sent"]
    assert "FAILED welcome to Bruno (D1-vote): the mail could not be built" in status_text(
        moderator.folder, game.id
    )
    assert send_due(moderator.outbox, sender).failed == 0  # marked once, never retried


class PreparingBadly(MemorySender):
    """A sender whose head start (MailSender.prepare) breaks, against the port's word."""

    def send_when(self, message, ready, meanwhile):
        ready()
        self.send(message)
        meanwhile()  # where the outbox builds the next mail and hands it to `prepare`

    def prepare(self, message):
        raise RuntimeError("the head start broke")


def test_a_sender_whose_preparation_raises_still_sends_every_mail(moderator):
    """Preparing the next mail ahead is only a head start: when it raises, the mails are
    built again at their turn and every one goes, none marked failed."""
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    sender = PreparingBadly()
    summary = send_due(moderator.outbox, sender)
    assert (summary.sent, summary.failed) == (4, 0)
    assert sorted(message["To"].addresses[0].addr_spec for message in sender.sent) == sorted(
        e.email for e in ROSTER
    )
    assert [r["status"] for r in rows(moderator, game.id)] == ["sent"] * 4


def test_a_sender_failing_in_an_unclassed_way_fails_that_row_only(moderator, sender):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    sender.failures = [ValueError("cannot encode this mail")]
    summary = send_due(moderator.outbox, sender)
    assert (summary.sent, summary.failed) == (3, 1)
    assert "sending failed: ValueError: cannot encode this mail" in status_text(
        moderator.folder, game.id
    )


def test_a_poisoned_row_stops_neither_the_cycle_nor_the_other_mail(
    moderator, sender, clock, tmp_path
):
    """One cycle with a row that cannot be built: the other rows go out, new mail is read
    and answered, and an overdue deadline is resolved, all in the same turn."""
    from pbp.daemon.cycle import Cycle
    from pbp.mail.maildir import MaildirMailbox, deliver

    game = create_game(moderator, "ballot", ROSTER, seed="s")
    file = moderator.folder.game(game.id)
    poisoned = rows(moderator, game.id)[0]
    file.outbox.update(
        {"recipient": "Alice\u2028Reply-To: evil@x", "address": "\x0c"}, doc_ids=[poisoned.doc_id]
    )
    deliver(
        tmp_path / "inbox",
        b"From: bruno@example.org\r\nSubject: help\r\nMessage-ID: <h@x>\r\n\r\nHELP\r\n",
    )
    clock.advance(days=3)  # past the deadline
    report = Cycle(moderator, MaildirMailbox(tmp_path / "inbox"), sender).turn()
    assert report.sent.failed == 1 and len(report.mail.processed) == 1 and report.resolutions
    assert {m["To"].addresses[0].addr_spec for m in sender.sent} == {e.email for e in ROSTER}
    assert "FAILED welcome to Alice" in status_text(moderator.folder, game.id)
