"""One turn of the moderator's work, shared by `pbp poll`, `pbp run` and `pbp demo`:
read new mail (pbp.mail.ingest.ingest_cycle), resolve every phase whose deadline has passed,
send what the outbox holds. Each step commits before the next begins, so stopping anywhere is safe.

Each turn ends with the one thread watch (pbp.forum.thread.watch): with the Reddit
publisher configured, it reads each game's public thread at most once per `[forum]
watch_interval` seconds (docs/design.md: Public posts)."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.mail.ingest import ingest_cycle
from pbp.mail.ingest.report import IngestReport, QuarantinedMail
from pbp.mail.ingest.spool import Spool
from pbp.desk import Desk
from pbp.forum import hooks as forum_hooks
from pbp.forum.thread.watch import ThreadWatch, WatchReport
from pbp.game.resolution import ResolutionSummary, resolve_due
from pbp.game.resolution import resolve_all_in
from pbp.forum.thread.activity import queue_prods
from pbp.forum.thread.running_counts import draft_due_tallies, draft_vote_tallies
from pbp.game.notifying.reminders import queue_reminders
from pbp.signups.starting import start_due
from pbp.moderator import Moderator
from pbp.game.deadlines import start_clocks
from pbp.ports import Mailbox, MailSender, OversizedMail
from pbp.daemon.outbox_sending import SendSummary, send_due


@dataclass
class CycleReport:
    mail: IngestReport | None = None
    resolutions: list[ResolutionSummary] = field(default_factory=list)
    sent: SendSummary = field(default_factory=SendSummary)
    forum_events: list[str] = field(
        default_factory=list
    )  # what publishing said (published, will retry…)
    watch: WatchReport = field(default_factory=WatchReport)  # how the thread watch went
    started: list[str] = field(
        default_factory=list
    )  # games started, or short of players, at their sign-up close


class Cycle:
    # Mail read per poll. Read here, it is committed in one durable write per game file
    # (pbp.mail.ingest.ingest_cycle); read ahead, in parts of at most 1,000
    # (pbp.mail.ingest.read_ahead). Either mailbox also caps a poll's download in bytes
    # (max_batch_bytes), so a poll of large mails reads fewer.
    INGEST_BATCH = 5000

    def __init__(
        self,
        moderator: Moderator,
        mailbox: Mailbox,
        sender: MailSender,
        batch: int = INGEST_BATCH,
        watch: ThreadWatch | None = None,
    ):
        self.moderator = moderator
        self.watch = watch or ThreadWatch()  # `pbp run` keeps one across cycles (its Reddit login)
        self.spool = Spool(moderator.folder.path / "spool")
        self.batch = batch
        self.desk = Desk(moderator)
        self.mailbox = mailbox
        self.sender = sender

    def poll(self) -> IngestReport:
        """One ingest cycle; what it quarantined or refused as too big is noted for `pbp status`."""
        settings = self.moderator.settings
        return ingest_cycle.Ingest(
            self.mailbox,
            self.desk,
            self.spool,
            (settings.from_address,),
            settings.max_mail_size,
            note_refused=self._note_refused,
        ).poll(self.batch)

    def _note_refused(self, item: QuarantinedMail | OversizedMail) -> None:
        """Record mail the ingest quarantines or refuses as too big, before it is moved."""
        if isinstance(item, OversizedMail):
            limit = self.moderator.settings.max_mail_size
            self.desk.record_quarantine(
                item.key,
                "",
                item.sender,
                "",
                f"over the size limit ({item.size} > {limit} bytes), not downloaded",
            )
        else:
            self.desk.record_quarantine(item.key, item.sha256, item.sender or "", "", item.reason)

    def resolve(self) -> list[ResolutionSummary]:
        # deadlines first, then phases whose orders are all in (option resolve_when_all_in)
        # a game whose votes come from its thread reads it one last time first (pbp.game.final_read)
        return resolve_due(self.moderator, gate=self.watch.final_read) + resolve_all_in(
            self.moderator
        )

    def send(self) -> SendSummary:
        return send_due(self.moderator.outbox, self.sender)

    def turn(self) -> CycleReport:
        """Sending first flushes what a crash left unsent before anything new is added."""
        report = CycleReport()
        self._add(report, self.send())
        report.mail = self.poll()
        self._add(report, self.send())
        report.resolutions = self.resolve()
        report.started = start_due(self.moderator)  # games whose sign-ups closed (pbp.signups)
        queue_reminders(self.moderator)  # before deadlines, to players with no orders
        report.forum_events.extend(
            draft_due_tallies(self.moderator)
        )  # running counts (option tally_every)
        # prods to post (option prod_below), counted from a fresh read of the game's thread
        report.forum_events.extend(queue_prods(self.moderator, read_first=self.watch.read_now))
        forum_hooks.publish_due(
            self.moderator, on_event=report.forum_events.append
        )  # approved public posts
        # a phase whose clock waited for a post just published starts it (option wait_for_publish)
        report.forum_events.extend(start_clocks(self.moderator))
        report.watch = self.watch.run(
            self.moderator
        )  # the public threads, at most once per watch_interval
        # running counts after so many votes (option tally_after_votes), from mail or the thread
        report.forum_events.extend(draft_vote_tallies(self.moderator))
        forum_hooks.publish_due(self.moderator, on_event=report.forum_events.append)
        self._add(report, self.send())
        self.moderator.folder.index.cycle_done()
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
