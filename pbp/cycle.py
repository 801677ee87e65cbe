"""One turn of the moderator's work, shared by `pbp poll`, `pbp run` and `pbp demo`:
read new mail (pbp.ingest), resolve every phase whose deadline has passed, send what the
outbox holds. Each step commits before the next begins, so stopping anywhere is safe."""
from __future__ import annotations

from dataclasses import dataclass, field

from pbp import ingest
from pbp.ingest import IngestReport
from pbp.mail.spool import Spool
from pbp.desk import Desk
from pbp.forum import hooks as forum_hooks
from pbp.games import ResolutionSummary, resolve_due
from pbp.host.operations import resolve_all_in
from pbp.reminders import queue_reminders
from pbp.moderator import Moderator
from pbp.outbox import SendSummary
from pbp.ports import Mailbox, MailSender


@dataclass
class CycleReport:
    mail: IngestReport | None = None
    resolutions: list[ResolutionSummary] = field(default_factory=list)
    sent: SendSummary = field(default_factory=SendSummary)


class Cycle:
    # Mail judged per poll, committed in one durable write per game file (pbp.ingest):
    # larger batches mean fewer whole-file writes and server moves per message.
    INGEST_BATCH = 500

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
        report = ingest.poll_once(self.mailbox, self.desk, self.spool, (settings.from_address,),
                                  settings.max_mail_size, limit=self.batch)
        for item in report.quarantined:
            self.desk.record_quarantine(item.key, item.sha256, item.sender or "", "", item.reason)
        for item in report.oversized:
            self.desk.record_quarantine(item.key, "", item.sender, "",
                                        f"over the size limit ({item.size} > {settings.max_mail_size} bytes), not downloaded")
        return report

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
        queue_reminders(self.moderator)  # before deadlines, to players with no orders (issue 5)
        forum_hooks.publish_due(self.moderator)  # approved public posts (issue 6)
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
