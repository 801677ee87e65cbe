"""How `pbp run` stops (pbp.daemon.run): Ctrl-C or SIGTERM ends the scheduler's loop, which
runs in the main thread, cleanly whenever it comes."""
from __future__ import annotations

import contextlib
import signal
import threading

from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers import SchedulerNotRunningError
from apscheduler.schedulers.blocking import BlockingScheduler


def run_until_stopped(scheduler: BlockingScheduler) -> None:
    """Run `scheduler` in this thread until Ctrl-C or SIGTERM stops it."""
    asked = threading.Event()  # set by SIGTERM; a thread of its own stops the scheduler

    def on_sigterm(_signal: int, _frame: object) -> None:
        """Ask for the scheduler to stop; a SIGTERM that comes before it runs (or after it
        stopped) ends the run as Ctrl-C does, instead of failing to stop what is not
        running. The handler runs in the scheduler's own thread, wherever that thread was:
        stopping the scheduler here could wait forever for a lock that thread holds (the
        job pool's, while it hands a job over), so another thread stops it."""
        if not scheduler.running:
            raise SystemExit(0)
        asked.set()

    def stop_when_asked() -> None:
        """The stopping thread. APScheduler marks itself stopped before it takes its
        locks, so a one-shot job being handed over just then is not found when the
        scheduler removes it: the run takes that JobLookupError as the stop it is."""
        asked.wait()
        with contextlib.suppress(SchedulerNotRunningError):  # it stopped meanwhile
            scheduler.shutdown(wait=False)

    threading.Thread(target=stop_when_asked, name="pbp-stop", daemon=True).start()
    try:
        signal.signal(signal.SIGTERM, on_sigterm)
        scheduler.start()
    except (KeyboardInterrupt, SystemExit):
        pass
    except JobLookupError:  # a one-shot job handed over as the stop began (see stop_when_asked)
        if scheduler.running:
            raise
