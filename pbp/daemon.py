"""`pbp run`: the daemon (design.md: Reliability rules, Deadlines).

APScheduler is only the alarm clock: deadlines live in the game files. One job polls the
inbox every `poll_interval` seconds; one alarm is set for the earliest deadline (and the
earliest outbox retry) and re-set after every turn. At start-up every overdue deadline
is resolved exactly once (a resolution commits the resolved phase's id with the new state,
so the same phase is never resolved again). All jobs run on one worker thread: the data
folder has one writer, and so does this process.
"""
from __future__ import annotations

import logging
import signal
import threading
from datetime import timedelta

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.blocking import BlockingScheduler

from pbp.cycle import Cycle
from pbp.games import next_deadline
from pbp.moderator import Moderator

log = logging.getLogger("pbp.daemon")
ALARM_JOB = "deadline-alarm"


class Daemon:
    def __init__(self, moderator: Moderator, cycle: Cycle, say=print):
        self.moderator = moderator
        self.cycle = cycle
        self.say = say
        self.lock = threading.Lock()
        self.scheduler = BlockingScheduler(executors={"default": ThreadPoolExecutor(1)},
                                           job_defaults={"coalesce": True, "max_instances": 1,
                                                         "misfire_grace_time": None},
                                           timezone="UTC")

    def turn(self) -> None:
        """Poll, resolve what is due, send; then re-arm the deadline alarm. A failure is
        reported and the next turn tries again (the daemon never dies of one bad turn)."""
        with self.lock:
            try:
                report = self.cycle.turn()
                if report.mail and not report.mail.idle:
                    self.say(f"mail: {len(report.mail.processed)} judged, {len(report.mail.quarantined)} quarantined, "
                             f"{len(report.mail.failed)} failed")
                for summary in report.resolutions:
                    self.say(f"resolved {summary.game} {summary.phase}"
                             + (f"; game over: {', '.join(summary.result['winners'])}" if summary.result else
                                f"; next {summary.next_phase}"))
                if report.sent.sent or report.sent.failed:
                    self.say(f"sent {report.sent.sent} mails, {report.sent.failed} failed, "
                             f"{report.sent.retrying} to retry")
            except Exception as error:  # one bad turn must not stop the moderator
                self.say(f"turn failed ({type(error).__name__}: {error}); trying again next turn")
            self._arm_alarm()

    def _arm_alarm(self) -> None:
        moments = [m for m in (next_deadline(self.moderator), self.moderator.outbox.next_attempt()) if m]
        if not moments:
            return
        when = max(min(moments), self.moderator.clock()) + timedelta(milliseconds=50)
        self.scheduler.add_job(self.turn, "date", run_date=when, id=ALARM_JOB, replace_existing=True)

    def run(self) -> None:
        self.say(f"pbp running: polling every {self.moderator.settings.poll_interval:g} s; stop with Ctrl-C or SIGTERM.")
        self.turn()  # start-up: overdue deadlines are resolved now, unsent mail goes out
        self.scheduler.add_job(self.turn, "interval", seconds=self.moderator.settings.poll_interval, id="poll")
        signal.signal(signal.SIGTERM, lambda *_: self.scheduler.shutdown(wait=False))
        try:
            self.scheduler.start()
        except (KeyboardInterrupt, SystemExit):
            pass
