"""`pbp run`: the daemon (docs/design.md: Reliability rules, Deadlines).

APScheduler is only the alarm clock: deadlines live in the game files. Each wake-up is one
cycle (`Daemon.turn`): take the data folder's writer lock, read the settings and the index
of deadlines and wake-ups afresh (it names the games with work; docs/design.md: Many
games), poll, resolve what is due, queue reminders, send, publish, watch the public threads,
compute the next wake-up from storage, release the lock. Between cycles the daemon holds
no lock and keeps no copy of any game, deadline or setting, so the host's own commands
(`pbp advance`, `extend`, `pause`, `new-game`, …) run between two cycles, each waiting for
the lock if a cycle is under way: one writer per data folder at every instant.

The daemon wakes at the earliest of: the next poll (`poll_interval`), the earliest
deadline, the earliest reminder time (pbp.game.notifying.reminders), the earliest outbox
retry, and — over IMAP with `[imap] idle = on` — the moment the server announces new mail in IDLE
(pbp.daemon.idle), so a receipt goes out within seconds whatever the poll interval. A change
the host makes between cycles is noticed within `CHANGE_CHECK_SECONDS` by the file
stamps of the registry and of the index of deadlines (pbp.storage.game_index), which every writer
replaces (inode, mtime, size: files are replaced whole), and the alarm is then recomputed
from the index, read without the lock; so after `pbp extend`
the phase resolves at the new deadline, not the old one, and after `pbp pause` not at all.

At start-up every overdue deadline is resolved exactly once (a resolution commits the
resolved phase's id with the new state, so the same phase is never resolved again). All
jobs run on one worker thread. A second `pbp run` on the same data folder is refused
(`run.lock`, held for the daemon's whole life). SIGTERM or Ctrl-C lets the cycle under way
finish (pbp.daemon.stopping); each event is a line of the log (pbp.daemon.logs;
docs/design.md: Running pbp as a service).
"""

from __future__ import annotations

import os
import threading
from datetime import datetime, timedelta
from typing import Any, Callable


from pbp import schedule
from pbp.timezones import to_text
from pbp.daemon.cycle import Cycle
from pbp.daemon import logs
from pbp.daemon.cycle_log import log_cycle, note_watch
from pbp.daemon.logs import LogToStdout
from pbp.forum.thread.watch import ThreadWatch
from pbp.storage.daemon_state import write_state
from pbp.errors import UserError
from pbp.daemon.idle import IdleWatcher
from pbp.daemon.stopping import StopSignals
from pbp.mail.transport import MailLinks
from pbp.composition import ComposedModerator, open_folder
from pbp.render.renderer import Renderer
from pbp.settings import Settings
from pbp.durable import WriterLock
from pbp.storage.datafolder import DataFolder
from pbp.mail.transport import open_imap_mailbox
from pbp.daemon.alarm import CHANGE_JOB, MAIL_JOB, POLL_JOB, new_scheduler, set_alarm
from pbp.daemon.run_lock import lock_holder, say_stopped, take_run_lock
from pbp.daemon.wake_up import WakeUp, folder_stamp, next_wake_up

# How often the daemon looks (with a few stat calls, no lock) for changes the host made.
CHANGE_CHECK_SECONDS = 0.5
# How long a cycle waits for the lock held by a host command before it gives up and tries
# again a little later: a host command is short, but `pbp draft edit` holds the lock while
# the host's editor is open.
CYCLE_LOCK_WAIT = 10.0
BUSY_RETRY_SECONDS = 5.0


class Daemon:
    def __init__(
        self,
        load_settings: Callable[[], Settings],
        log_output: LogToStdout | None = None,
        clock: Callable[[], datetime] = schedule.now,
        lock_wait: float = CYCLE_LOCK_WAIT,
    ):
        self.load_settings = load_settings
        self.settings = load_settings()
        self.log_output = log_output  # follows the settings read at each cycle (level, secrets)
        self.clock = clock
        self.lock_wait = lock_wait
        self.links = MailLinks()
        self.renderers: dict[str, Renderer] = {}  # one per language, refreshed each cycle
        self.watch = ThreadWatch()  # one across cycles: its Reddit login is reused
        self.turn_lock = threading.Lock()
        self.stamp: tuple[Any, ...] | None = None
        # The first cycle rebuilds the index of deadlines (a file restored by hand).
        self.reindex = True
        self.poll_interval = self.settings.poll_interval
        self.busy = False
        self.stopping = False  # set once a stop signal came: no cycle starts after it
        self.idle: IdleWatcher | None = None
        self.state: dict[str, Any] = {
            "pid": os.getpid(),
            "started": to_text(clock()),
            "last_cycle": "",
            "last_error": "",
            "next_wake": "",
            "next_reason": "",
            "watch": None,
        }
        # One daemon per data folder.
        self.run_lock = WriterLock(self.settings.data, name="run.lock")
        self.scheduler = new_scheduler()

    # ------------------------------------------------------------------ one cycle
    def turn(self) -> None:
        """One cycle under the writer lock. A failure is reported and the next cycle tries
        again (the daemon never dies of one bad cycle)."""
        with self.turn_lock:
            if self.stopping:
                return
            self._reload_settings()
            try:
                folder = open_folder(self.settings.data, writer=True, wait=self.lock_wait)
            except UserError:
                self._busy()
                return
            if self.busy:
                logs.info("the data folder is free again; carrying on")
                self.busy = False
            if self.reindex:
                folder.index.look_at_every_game()
                self.reindex = False
            try:
                wake, computed = self._cycle(folder)
            finally:
                folder.close()  # releases the lock; every cached copy goes with it
            if computed:  # else the alarm set before stands, and the poll comes anyway
                self._arm(wake)
            self._follow_poll_interval()

    def _reload_settings(self) -> None:
        """The settings file as it is now (a bad one keeps the previous settings), and the
        log following its level and secrets."""
        try:
            self.settings = self.load_settings()
        except UserError as error:
            logs.warning(
                f"the settings file cannot be read ({error}); keeping the previous settings"
            )
        if self.log_output is not None:
            self.log_output.follow(self.settings)

    def _cycle(self, folder: DataFolder) -> tuple[WakeUp | None, bool]:
        """The cycle's work in the locked folder, then the next wake-up, the index, the
        state and the stamp; the wake-up and whether it was computed."""
        try:
            moderator = ComposedModerator(self.settings, clock=self.clock, folder=folder)
            moderator.keep_renderers(self.renderers)  # a template the host edits is re-read
            self.state["last_error"] = ""
            try:
                self._work(moderator)
            except Exception as error:  # one bad cycle must not stop the moderator
                self.state["last_error"] = f"{type(error).__name__}: {error}"
                logs.error(
                    f"cycle failed ({type(error).__name__}: {error}); trying again next cycle"
                )
            wake = next_wake_up(folder, self.clock())
            folder.index.save(folder)  # before the state and the stamp: the cycle's last write
            self.state["last_cycle"] = to_text(self.clock())
            self._record_wake(wake)
            write_state(self.settings.data, self.state)
            self.stamp = folder_stamp(self.settings.data)  # still under the lock: ours alone
            return wake, True
        except Exception as error:  # noqa: BLE001 - e.g. a game file that cannot be read
            logs.error(f"cycle failed ({type(error).__name__}: {error}); trying again next cycle")
            return None, False

    def _work(self, moderator: ComposedModerator) -> None:
        mailbox, sender = self.links.for_settings(moderator.settings)
        report = Cycle(moderator, mailbox, sender, watch=self.watch).turn()
        note_watch(self.state, report.watch, self.clock)
        log_cycle(report)

    def _busy(self) -> None:
        if not self.busy:
            holder = lock_holder(self.settings.data)
            logs.warning(
                f"the data folder is busy (pbp process {holder} holds it); "
                f"trying again every {BUSY_RETRY_SECONDS:g} s"
            )
            self.busy = True
        self._arm(
            WakeUp(self.clock() + timedelta(seconds=BUSY_RETRY_SECONDS), "the data folder was busy")
        )

    # ------------------------------------------------------------------ the alarm
    def _record_wake(self, wake: WakeUp | None) -> None:
        poll = self.clock() + timedelta(seconds=self.settings.poll_interval)
        if wake is None or poll < wake.when:
            wake = WakeUp(poll, "next poll")
        self.state["next_wake"] = to_text(wake.when)
        self.state["next_reason"] = wake.reason

    def _arm(self, wake: WakeUp | None) -> None:
        """Set the one alarm to `wake` (or remove it): it replaces the previous alarm, so
        an alarm for a deadline that the host moved never fires."""
        set_alarm(self.scheduler, self.turn, wake, self.clock())

    def _follow_poll_interval(self) -> None:
        interval = self.settings.poll_interval
        if interval != self.poll_interval and self.scheduler.get_job(POLL_JOB):
            self.scheduler.reschedule_job(POLL_JOB, trigger="interval", seconds=interval)
            logs.info(f"polling every {interval:g} s now")
        self.poll_interval = interval

    def notice_changes(self) -> None:
        """If another pbp process changed a game or the registry since the last cycle,
        recompute the alarm from storage (read without the lock; files are whole)."""
        with self.turn_lock:
            stamp = folder_stamp(self.settings.data)
            if self.stopping or stamp == self.stamp:
                return
            try:
                folder = DataFolder(self.settings.data, writer=False)
            except UserError:
                return
            try:
                wake = next_wake_up(folder, self.clock())
            except Exception:  # noqa: BLE001 - caught a writer between two files: look again soon
                return
            finally:
                folder.close()
            self.stamp = stamp
            self._arm(wake)

    # ------------------------------------------------------------------ IMAP IDLE
    def _start_idle(self) -> None:
        if self.settings.transport != "imap" or not self.settings.imap.idle:
            return
        self.idle = IdleWatcher(
            lambda: open_imap_mailbox(self.settings),
            self._mail_arrived,
            renew=self.settings.imap.idle_renew,
            say=logs.info,
            warn=logs.warning,
        )
        self.idle.start()

    def _mail_arrived(self) -> None:
        """The server announced new mail: a cycle now, or right after the one running (it
        may have fetched before the mail came). Two instances: one running, one waiting;
        with one, APScheduler would skip the waiting one and the mail would wait for the
        next poll."""
        self.scheduler.add_job(
            self.turn, "date", id=MAIL_JOB, replace_existing=True, max_instances=2
        )

    # ------------------------------------------------------------------ life
    def run(self) -> None:
        """Until SIGTERM or Ctrl-C: the cycle under way then finishes and commits, no new
        one starts, and the run ends (pbp.daemon.stopping)."""
        take_run_lock(self.run_lock, self.settings.data)
        try:
            with StopSignals() as stop:
                idle = (
                    " and waiting in IMAP IDLE for new mail"
                    if self.settings.transport == "imap" and self.settings.imap.idle
                    else ""
                )
                logs.info(
                    f"pbp running: polling every {self.settings.poll_interval:g} s{idle}; host"
                    " commands may run at any time; stop with Ctrl-C or SIGTERM."
                )
                self.turn()  # start-up: overdue deadlines are resolved now, unsent mail goes out
                if not stop.came():
                    self.scheduler.add_job(
                        self.turn, "interval", seconds=self.poll_interval, id=POLL_JOB
                    )
                    self.scheduler.add_job(
                        self.notice_changes, "interval", seconds=CHANGE_CHECK_SECONDS, id=CHANGE_JOB
                    )
                    self.scheduler.start()
                    self._start_idle()
                stop.wait(then=self._stop_cycles)
                with self.turn_lock:
                    say_stopped(self.settings.data, self.state, self.clock())
        finally:
            if self.idle is not None:
                self.idle.stop()
            self.links.close()
            self.run_lock.release()

    def _stop_cycles(self) -> None:
        """No new cycle starts (one already handed to the worker returns at once); the
        one under way finishes first. The scheduler is shut down without waiting for its
        jobs: it would wait holding its job stores' lock, which a cycle needs to set the
        next alarm."""
        self.stopping = True
        logs.info("stopping: the cycle under way (if any) finishes first")
        with self.turn_lock:  # taken once the cycle under way ended
            pass
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
