"""The daemon's answer to the IMAP IDLE watcher (pbp.daemon.run: `_mail_arrived`): every
announcement of new mail leads to a cycle that starts after it, even when it comes while
a cycle is running (that cycle may have fetched before the mail arrived). The scheduler
runs for real; the cycle is replaced by a recorder that the test holds and releases, so
the test waits only for events."""

from __future__ import annotations

import threading

import pytest

from pbp.daemon.run import Daemon
from pbp.settings import load_settings

pytestmark = pytest.mark.timeout(60)
GUARD = 20.0


def test_mail_announced_during_a_cycle_gets_a_cycle_of_its_own(tmp_path):
    daemon = Daemon(lambda: load_settings(None, str(tmp_path / "data")))
    started = [threading.Event(), threading.Event()]
    release = threading.Event()
    calls = []

    def cycle():
        calls.append(len(calls))
        started[min(len(calls), 2) - 1].set()
        if len(calls) == 1:
            assert release.wait(GUARD)

    daemon.turn = cycle
    runner = threading.Thread(target=daemon.scheduler.start, daemon=True)
    runner.start()
    try:
        daemon._mail_arrived()
        assert started[0].wait(GUARD)  # the first cycle runs (and is held)
        daemon._mail_arrived()  # mail comes while it runs
        release.set()
        assert started[1].wait(GUARD), "the mail that came during a cycle got no cycle of its own"
    finally:
        release.set()
        daemon.scheduler.shutdown(wait=False)
        runner.join(GUARD)
    assert len(calls) == 2
