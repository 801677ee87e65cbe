"""Stopping `pbp run` with SIGTERM (pbp.daemon) before its scheduler runs: the daemon
stops cleanly and says so for `pbp status`. The signal is sent by the test itself at the
chosen point, not after a delay. (A SIGTERM to a running daemon is sent by the daemon
tests that run `pbp run` as a process.)"""
from __future__ import annotations

import os
import signal

import pytest

from pbp.daemon import Daemon
from pbp.daemon_state import read_state
from pbp.settings import load_settings

pytestmark = pytest.mark.timeout(60)


def test_a_sigterm_before_the_scheduler_runs_stops_the_daemon_cleanly(tmp_path):
    """The handler is in place just before the scheduler starts: a SIGTERM in between
    ends the run as Ctrl-C would (it used to raise SchedulerNotRunningError there)."""
    daemon = Daemon(lambda: load_settings(None, str(tmp_path / "data")), say=lambda line: None)
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
