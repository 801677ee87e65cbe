"""The due rows of one game's outbox, read and built one ahead of sending (docs/design.md:
Reliability rules, Outbox), for pbp.daemon.outbox_sending."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from typing import Callable, Iterator

from pbp.timezones import as_utc
from pbp.storage.datafolder import GameFile
from pbp.storage.outbox import OutboxRow
from pbp.storage.outbox_queue import QUEUED


class DueMails:
    """The due rows of one game's outbox, oldest first, each with its mail built (or the
    error building it raised). `prepare` reads and builds the next one ahead of time: the
    SMTP sender calls it while the server considers the mail before (pbp.mail.smtp), so
    that work overlaps the wait. Rows change only through the outbox's own marks, which
    are on rows already taken, so reading a row early reads what it would read later."""

    def __init__(
        self,
        build: Callable[[OutboxRow], EmailMessage],
        game: GameFile,
        ids: set[int],
        now: datetime,
        ahead: Callable[[EmailMessage], None] = lambda message: None,
    ):
        self._build = build  # the mail of a row (OutboxSending.build)
        self._ahead_of_sending = ahead  # the sender's own preparation (MailSender.prepare)
        self._rows = self._due(game, ids, now)
        self._ahead: tuple[int, OutboxRow, EmailMessage | Exception] | None = None
        self._trouble: Exception | None = None  # reading the next row failed: raised by `take`
        self._ready = False

    @staticmethod
    def _due(game: GameFile, ids: set[int], now: datetime) -> Iterator[tuple[int, OutboxRow]]:
        for doc_id in sorted(ids):
            stored = game.outbox.get(doc_id=doc_id)
            row = OutboxRow.from_row(stored) if stored is not None else None
            if row is None or row.status != QUEUED:
                ids.discard(doc_id)
                continue
            if row.next_attempt and as_utc(row.next_attempt) > now:
                continue
            yield doc_id, row

    def prepare(self) -> None:
        """Read and build the next due row, if not done yet; never raises (see `take`)."""
        if self._ready:
            return
        self._ready = True
        try:
            item = next(self._rows, None)
        except Exception as error:  # the storage's trouble, raised where the loop takes the row
            self._trouble = error
            return
        if item is not None:
            doc_id, row = item
            built: EmailMessage | Exception
            try:
                message = self._build(row)
            except (
                Exception
            ) as error:  # a row that cannot be built fails alone (OutboxSending._send_one)
                built = error
            else:
                built = message
                try:
                    self._ahead_of_sending(message)
                except Exception:  # noqa: BLE001 - only a head start: sending does the work again
                    pass
            self._ahead = (doc_id, row, built)

    def take(self) -> tuple[int, OutboxRow, EmailMessage | Exception] | None:
        """The next due row and its mail, or None when there are no more."""
        self.prepare()
        item, trouble = self._ahead, self._trouble
        self._ahead, self._trouble, self._ready = None, None, False
        if trouble is not None:
            raise trouble
        return item


class MarkNotStored(Exception):
    """The previous mark's sync failed while a mail waited for it (carried through the sender)."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error
