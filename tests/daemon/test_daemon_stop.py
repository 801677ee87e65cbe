"""Stopping `pbp run` with SIGTERM (pbp.daemon.run, pbp.daemon.stopping) before its scheduler
runs, or while the scheduler hands a job over: the daemon stops cleanly and says so for
`pbp status`. The signal is sent by the test itself at the chosen point, not after a
delay. (A SIGTERM in the middle of a cycle: tests/integration/test_run_stops_on_sigterm.py.)"""

from __future__ import annotations

import os
import signal

import pytest

from pbp.daemon.run import Daemon
from pbp.storage.daemon_state import read_state
from pbp.settings import load_settings

pytestmark = pytest.mark.timeout(60)


def test_a_sigterm_before_the_scheduler_runs_stops_the_daemon_cleanly(tmp_path):
    """A SIGTERM just before the scheduler starts ends the run as Ctrl-C would (it used to
    raise SchedulerNotRunningError there)."""
    daemon = Daemon(lambda: load_settings(None, str(tmp_path / "data")))
    real_start = daemon.scheduler.start

    def start_after_a_sigterm() -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # its handler runs here, in this thread
        real_start()

    daemon.scheduler.start = start_after_a_sigterm
    before = signal.getsignal(signal.SIGTERM)
    try:
        daemon.run()
    finally:
        signal.signal(signal.SIGTERM, before)
    assert not daemon.scheduler.running
    assert read_state(tmp_path / "data")["stopped"]


def test_a_sigterm_while_the_scheduler_hands_a_job_over_stops_the_daemon_cleanly(tmp_path):
    """The SIGTERM comes while the scheduler's thread holds its job pool's lock, handing
    a job over. A handler that stopped the scheduler there waited for that lock forever (a
    `pbp run` that never ended); the handler now only notes the signal."""
    daemon = Daemon(lambda: load_settings(None, str(tmp_path / "data")))
    pool = daemon.scheduler._executors[
        "default"
    ]._pool  # APScheduler's own: the lock is taken inside it
    real_adjust = pool._adjust_thread_count  # called by the pool's submit with its lock held
    sent = []

    def adjust_after_a_sigterm() -> None:
        if not sent:
            sent.append("sent")
            os.kill(os.getpid(), signal.SIGTERM)  # its handler runs here, with the lock held
            sent.append(
                "handled"
            )  # it came back (it used to wait for that lock until the test's timeout)
        real_adjust()

    pool._adjust_thread_count = adjust_after_a_sigterm
    before = signal.getsignal(signal.SIGTERM)
    try:
        daemon.run()
    finally:
        signal.signal(signal.SIGTERM, before)
    assert sent == ["sent", "handled"] and not daemon.scheduler.running
    assert read_state(tmp_path / "data")["stopped"]
