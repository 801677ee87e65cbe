"""Sending the outbox (docs/design.md: Reliability rules, Outbox): the daemon's job; the
storage only keeps the queue (pbp.storage.outbox_queue).

Every mail pbp sends is first a row in its game's file, written in the same durable write
as the change that caused it. Sending comes later: one message per recipient through a
`MailSender`, one connection per batch of due rows. A row is marked sent only after the
server accepted it, and each mark is committed before the next mail goes out, so a crash
can resend only the one mail inside the SMTP DATA window (with the same Message-ID), and a
restart resends exactly the rows not yet marked. Transient failures are retried with
exponential backoff (the next attempt's time is stored in the row); permanent failures
are recorded and shown by `pbp status`.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from email.message import EmailMessage
from typing import Any, Callable, Mapping

from pbp import schedule
from pbp.timezones import to_text
from pbp.crashpoints import crash_point
from pbp.daemon.due_mails import DueMails, MarkNotStored
from pbp.mail.compose import compose
from pbp.ports import MailSender, PermanentSendError, TransientSendError
from pbp.storage.datafolder import GameFile
from pbp.storage.outbox import OutboxRow
from pbp.storage.outbox_queue import FAILED, SENT, OutboxQueue

# A mail that failed for now: 30 s after the first failure, doubling, at most an hour.
RETRY = schedule.Backoff(first=30.0, longest=3600.0)
# Longest time between two commits of the marks of one batch (seconds). Zero: every mark is
# committed before the next mail is sent (docs/design.md: Reliability rules — Outbox). A
# larger value trades that guarantee for speed (each mark is one line appended to the journal).
MARK_INTERVAL = 0.0
# Kinds that are reports on a resolution rather than answers to a player's mail.
GENERATED_KINDS = ("welcome", "report", "spectator")


@dataclass
class _PendingMarks:
    """The ledger changes of one game's rows in a batch, not yet committed."""

    game: GameFile
    changes: dict[int, dict[str, Any]] = field(default_factory=dict)
    settled: set[int] = field(default_factory=set)  # rows that leave the unsent set once committed
    since: float = field(default_factory=time.monotonic)

    def add(self, doc_id: int, fields: dict[str, Any], settled: bool) -> None:
        self.changes[doc_id] = fields
        if settled:
            self.settled.add(doc_id)

    def due(self) -> bool:
        return time.monotonic() - self.since >= MARK_INTERVAL

    def commit(self, unsent: set[int]) -> None:
        """One durable write for every change: rows with the same changes in one update."""
        if self.changes:
            grouped: dict[tuple[Any, ...], list[int]] = {}
            for doc_id, fields in self.changes.items():
                grouped.setdefault(tuple(sorted(fields.items())), []).append(doc_id)
            with self.game.transaction():
                for pairs, doc_ids in grouped.items():
                    self.game.outbox.update(dict(pairs), doc_ids=doc_ids)
            unsent.difference_update(self.settled)
        self.changes, self.settled, self.since = {}, set(), time.monotonic()


@dataclass
class SendSummary:
    sent: int = 0
    retrying: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


def send_due(outbox: OutboxQueue, sender: MailSender) -> SendSummary:
    """Send every queued row of `outbox` whose time has come (OutboxSending.send_due)."""
    return OutboxSending(outbox).send_due(sender)


def build(outbox: OutboxQueue, row: OutboxRow | Mapping[str, Any]) -> EmailMessage:
    """The mail one outbox row stands for, dated now."""
    return OutboxSending(outbox).build(row)


class OutboxSending:
    """Sending one outbox's due rows, oldest first, marking each in its row."""

    def __init__(self, outbox: OutboxQueue):
        self.outbox = outbox
        self.clock = outbox.clock

    def build(self, row: OutboxRow | Mapping[str, Any]) -> EmailMessage:
        if not isinstance(row, OutboxRow):
            row = OutboxRow.from_row(row)
        return compose(
            sender=(self.outbox.from_name, self.outbox.from_address),
            recipient=(row.recipient, row.address),
            subject=row.subject,
            body=row.body,
            message_id=row.message_id,
            in_reply_to=row.in_reply_to or None,
            references=list(row.references[-10:]),
            auto="auto-generated" if row.kind in GENERATED_KINDS else "auto-replied",
            date=self.clock(),
            attachments=row.attachments,
        )

    def send_due(self, sender: MailSender) -> SendSummary:
        """Send every queued row whose time has come, oldest first, marking each. The due
        rows are one batch: the sender's connection is closed when the batch is done."""
        summary = SendSummary()
        now = self.clock()
        # A mark's sync runs here while the next mail is read and built (see _send_game).
        syncer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pbp-mark-sync")
        try:
            for game_id, ids in list(self.outbox.unsent_by_file().items()):
                try:
                    self._send_game(self.outbox.file_of(game_id), ids, sender, summary, now, syncer)
                except (
                    Exception
                ) as error:  # one unreadable game file must not hold up the others' mail
                    summary.errors.append(
                        f"game {game_id}: its outbox could not be read: {type(error).__name__}:"
                        f" {error}"
                    )
        finally:
            syncer.shutdown()
            sender.close()
        return summary

    def _send_game(
        self,
        game: GameFile,
        ids: set[int],
        sender: MailSender,
        summary: SendSummary,
        now: datetime,
        syncer: Executor,
    ) -> None:
        """Each mark is committed before the next mail is sent: its line is written at once,
        and its sync, running on `syncer` while the next row is read and its mail built, is
        waited for before that mail goes to the sender."""
        with game.syncing_in(syncer) as settle:
            marks = _PendingMarks(game)
            due = DueMails(self.build, game, ids, now, sender.prepare)
            try:
                while (item := due.take()) is not None:
                    doc_id, row, built = item
                    sent = self._send_one(
                        marks, doc_id, row, built, sender, summary, now, settle, due.prepare
                    )
                    if marks.due():
                        marks.commit(ids)
                    if sent and row.kind == "report":
                        crash_point("mid-send")  # a phase's reports half sent
            finally:
                marks.commit(ids)  # what was sent before an error is marked all the same

    def _send_one(
        self,
        marks: _PendingMarks,
        doc_id: int,
        row: OutboxRow,
        built: EmailMessage | Exception,
        sender: MailSender,
        summary: SendSummary,
        now: datetime,
        settle: Callable[[], None],
        meanwhile: Callable[[], None],
    ) -> bool:
        """Send one row and mark it; True when the server accepted it. A row that cannot
        even be made into a mail, or that the sender fails on in a way it does not class, is
        marked failed at once: one bad row is shown to the host and never stops the rows
        after it."""
        attempts = row.attempts + 1
        if isinstance(
            built, Exception
        ):  # a row that cannot be built is shown to the host and never stops the rows after it
            self._fail(
                marks,
                doc_id,
                row,
                attempts,
                f"the mail could not be built: {type(built).__name__}: {built}",
                summary,
            )
            return False
        return self._deliver(
            marks, doc_id, row, built, attempts, sender, summary, now, settle, meanwhile
        )

    def _deliver(
        self,
        marks: _PendingMarks,
        doc_id: int,
        row: OutboxRow,
        message: EmailMessage,
        attempts: int,
        sender: MailSender,
        summary: SendSummary,
        now: datetime,
        settle: Callable[[], None],
        meanwhile: Callable[[], None],
    ) -> bool:
        """Hand the built mail to the sender and mark the row by how that went: sent,
        retried later, or failed."""
        try:
            sender.send_when(message, _stored_first(settle), meanwhile)
        except (
            MarkNotStored
        ) as trouble:  # the storage's trouble, not this mail's: it goes on as it is
            raise trouble.error from None
        except TransientSendError as error:
            self._retry_later(marks, doc_id, row, attempts, str(error), summary, now)
            return False
        except PermanentSendError as error:
            self._fail(marks, doc_id, row, attempts, str(error), summary)
            return False
        except Exception as error:  # a failure the sender does not class fails this row alone
            self._fail(
                marks,
                doc_id,
                row,
                attempts,
                f"sending failed: {type(error).__name__}: {error}",
                summary,
            )
            return False
        marks.add(
            doc_id,
            {"attempts": attempts, "status": SENT, "error": "", "sent": to_text(self.clock())},
            settled=True,
        )
        summary.sent += 1
        return True

    def _retry_later(
        self,
        marks: _PendingMarks,
        doc_id: int,
        row: OutboxRow,
        attempts: int,
        error: str,
        summary: SendSummary,
        now: datetime,
    ) -> None:
        """A failure for now: the row stays queued, its next attempt after the backoff."""
        marks.add(
            doc_id,
            {
                "attempts": attempts,
                "error": error,
                "next_attempt": to_text(now + RETRY.delay(attempts)),
            },
            settled=False,
        )
        summary.retrying += 1
        summary.errors.append(f"{row.message_id}: {error}")

    def _fail(
        self,
        marks: _PendingMarks,
        doc_id: int,
        row: OutboxRow,
        attempts: int,
        error: str,
        summary: SendSummary,
    ) -> None:
        marks.add(doc_id, {"attempts": attempts, "status": FAILED, "error": error}, settled=True)
        summary.failed += 1
        summary.errors.append(f"{row.message_id or '(no Message-ID)'}: {error}")


def _stored_first(settle: Callable[[], None]) -> Callable[[], None]:
    """The previous mark is on disk before this mail can be accepted: the check returned
    waits for its sync, and the sender calls it before the server can accept the mail."""

    def ready() -> None:
        try:
            settle()
        except BaseException as error:
            raise MarkNotStored(error) from error

    return ready
