"""One turn of the moderator's work, shared by `pbp poll`, `pbp run` and `pbp demo`:
read new mail (pbp.ingest), resolve every phase whose deadline has passed, send what the
outbox holds. Each step commits before the next begins, so stopping anywhere is safe.

`ThreadWatch` is the part of `pbp run`'s cycle that reads each game's public Reddit
thread (docs/design.md: Public posts); it runs only when the Reddit publisher is configured."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from pbp import ingest
from pbp.ingest import IngestReport
from pbp.mail.spool import Spool
from pbp.desk import Desk
from pbp.forum import hooks as forum_hooks
from pbp.forum.config import load_forum_settings
from pbp.game.resolution import ResolutionSummary, resolve_due
from pbp.game.resolution import resolve_all_in
from pbp.reminders import queue_reminders
from pbp.moderator import Moderator
from pbp.outbox import SendSummary
from pbp.game.deadlines import start_clocks
from pbp.ports import Mailbox, MailSender, OversizedMail


@dataclass
class CycleReport:
    mail: IngestReport | None = None
    resolutions: list[ResolutionSummary] = field(default_factory=list)
    sent: SendSummary = field(default_factory=SendSummary)
    forum_events: list[str] = field(default_factory=list)  # what publishing said (published, will retry…)


class Cycle:
    # Mail judged per poll, committed in one durable write per game file (pbp.ingest):
    # larger batches mean fewer whole-file writes and server moves per message. The IMAP
    # mailbox also caps a poll's download in bytes (pbp.mail.imap: max_batch_bytes).
    INGEST_BATCH = 1000

    def __init__(self, moderator: Moderator, mailbox: Mailbox, sender: MailSender, batch: int = INGEST_BATCH):
        self.moderator = moderator
        self.spool = Spool(moderator.folder.path / "spool")
        self.batch = batch
        self.desk = Desk(moderator)
        self.mailbox = mailbox
        self.sender = sender

    def poll(self) -> IngestReport:
        """One ingest cycle; what it quarantined or refused as too big is noted for `pbp status`."""
        settings = self.moderator.settings
        return ingest.poll_once(self.mailbox, self.desk, self.spool, (settings.from_address,),
                                settings.max_mail_size, limit=self.batch, note_refused=self._note_refused)

    def _note_refused(self, item: ingest.QuarantinedMail | OversizedMail) -> None:
        """Record mail the ingest quarantines or refuses as too big, before it is moved."""
        if isinstance(item, OversizedMail):
            limit = self.moderator.settings.max_mail_size
            self.desk.record_quarantine(item.key, "", item.sender, "",
                                        f"over the size limit ({item.size} > {limit} bytes), not downloaded")
        else:
            self.desk.record_quarantine(item.key, item.sha256, item.sender or "", "", item.reason)

    def resolve(self) -> list[ResolutionSummary]:
        # deadlines first, then phases whose orders are all in (option resolve_when_all_in)
        return resolve_due(self.moderator) + resolve_all_in(self.moderator)

    def send(self) -> SendSummary:
        return self.moderator.outbox.send_due(self.sender)

    def turn(self) -> CycleReport:
        """Sending first flushes what a crash left unsent before anything new is added."""
        report = CycleReport()
        self._add(report, self.send())
        report.mail = self.poll()
        self._add(report, self.send())
        report.resolutions = self.resolve()
        queue_reminders(self.moderator)  # before deadlines, to players with no orders
        forum_hooks.publish_due(self.moderator, on_event=report.forum_events.append)  # approved public posts
        # a phase whose clock waited for a post just published starts it (option wait_for_publish)
        report.forum_events.extend(start_clocks(self.moderator))
        self._add(report, self.send())
        return report

    @staticmethod
    def _add(report: CycleReport, sent: SendSummary) -> None:
        report.sent.sent += sent.sent
        report.sent.retrying += sent.retrying
        report.sent.failed += sent.failed
        report.sent.errors.extend(sent.errors)

    def close(self) -> None:
        self.mailbox.close()
        self.sender.close()


@dataclass
class WatchReport:
    """How the last thread watch went, for the daemon's log and `pbp status`."""

    ran: bool = False
    warnings: list[str] = field(default_factory=list)
    error: str = ""


class ThreadWatch:
    """Reads each game's Reddit thread at most once per `every` seconds and warns the host
    of posts by dead or silenced players (pbp.forum.hooks.watch_threads).

    The praw reader is kept between cycles (its login is reused) and rebuilt when the
    `[reddit]` settings change; the settings file itself is read on every call, so a host
    who switches the publisher on or off is followed at the next cycle. A failure (Reddit
    down, a rate limit) never stops the cycle: it is reported and tried again next time."""

    def __init__(self, every: float, reader_for: Callable[[Any], Any] | None = None,
                 monotonic: Callable[[], float] = time.monotonic):
        self.every = every
        self.reader_for = reader_for or _praw_reader
        self.monotonic = monotonic
        self._reader: tuple[Any, Any] | None = None  # (the settings it was built from, the reader)
        self._last: float | None = None

    def due(self) -> bool:
        return self._last is None or self.monotonic() - self._last >= self.every

    def run(self, moderator: Moderator, on_warning: Callable[[str], None] = lambda text: None) -> WatchReport:
        report = WatchReport()
        try:
            forum = load_forum_settings(moderator.settings)
        except Exception as error:  # a broken [forum] section is the host's to fix; say so
            return WatchReport(ran=True, error=f"{type(error).__name__}: {error}")
        if forum.publisher != "reddit" or forum.reddit is None or not self.due():
            return report
        self._last = self.monotonic()
        report.ran = True
        noted: list[str] = []
        try:
            if self._reader is None or self._reader[0] != forum.reddit:
                self._reader = (forum.reddit, self.reader_for(forum.reddit))
            report.warnings = forum_hooks.watch_threads(moderator, self._reader[1], noted.append)
        except Exception as error:  # noqa: BLE001 - the watch must never stop the moderator
            self._reader = None  # log in afresh next time
            report.error = f"{type(error).__name__}: {error}"
        for text in report.warnings:
            on_warning(text)
        # What the watch noted besides its warnings is a thread it could not read.
        problems = [text for text in noted if text not in report.warnings]
        if problems and not report.error:
            report.error = problems[-1]
        return report


def _praw_reader(reddit_settings: Any) -> Any:
    from pbp.forum.reddit import RedditPublisher  # praw is loaded only when used
    return RedditPublisher(reddit_settings)
