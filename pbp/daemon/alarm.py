"""The alarm clock of `pbp run` (docs/design.md: Reliability rules, Deadlines): one
APScheduler scheduler with one worker, its jobs, and the one alarm set to the next wake-up
(pbp.daemon.wake_up). For pbp.daemon.run."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Callable

from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.schedulers.background import BackgroundScheduler

from pbp.daemon.wake_up import WakeUp

ALARM_JOB = "alarm"
POLL_JOB = "poll"
CHANGE_JOB = "changes"
MAIL_JOB = "new-mail"
# A little after the moment itself, so that "deadline <= now" holds when the cycle runs.
ALARM_SLACK = timedelta(milliseconds=50)


def new_scheduler() -> BackgroundScheduler:
    """One worker: cycles never overlap, and a job that comes while one runs is coalesced."""
    scheduler = BackgroundScheduler(
        executors={"default": ThreadPoolExecutor(1)},
        job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": None},
        timezone="UTC",
    )
    # "skipped: maximum number of running instances reached" is expected while a long
    # cycle runs; it is not worth a line in the host's log.
    logging.getLogger("apscheduler").setLevel(logging.ERROR)
    return scheduler


def set_alarm(
    scheduler: BackgroundScheduler, turn: Callable[[], None], wake: WakeUp | None, now: datetime
) -> None:
    """Set the one alarm to `wake` (or remove it): it replaces the previous alarm."""
    if wake is None:
        if scheduler.get_job(ALARM_JOB):
            scheduler.remove_job(ALARM_JOB)
        return
    when = max(wake.when, now) + ALARM_SLACK
    scheduler.add_job(turn, "date", run_date=when, id=ALARM_JOB, replace_existing=True)
