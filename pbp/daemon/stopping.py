"""How `pbp run` stops (pbp.daemon.run; docs/design.md: Running pbp as a service): SIGTERM
(systemd's stop, `kill`) or Ctrl-C lets the cycle under way finish and commit, then ends the
run with exit code 0.

The signal handlers only note the signal: Python runs them in the main thread between two
bytecodes, wherever that thread was, so a handler that stopped the scheduler or raised
there could cut a cycle in two or wait forever for a lock its own thread holds. The signal
is carried by `signal.set_wakeup_fd` (written by the C-level handler, no Python lock
involved) to a pipe the main thread waits on; it then shuts the scheduler down, waiting for
the running cycle.
"""

from __future__ import annotations

import os
import select
import signal
from types import FrameType
from typing import Any, Callable

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StopSignals:
    """While in use (`with StopSignals() as stop:`), SIGTERM and SIGINT are noted, not
    acted on; `stop.wait()` returns once one came (at once if one came already). Use it
    in the main thread only (Python's signal rules)."""

    def __init__(self) -> None:
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._previous_fd = -1
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> "StopSignals":
        for number in STOP_SIGNALS:
            self._previous[number] = signal.signal(number, _note)
        self._previous_fd = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        return self

    def __exit__(self, *_: object) -> None:
        signal.set_wakeup_fd(self._previous_fd)
        for number, handler in self._previous.items():
            signal.signal(number, handler)
        os.close(self._read)
        os.close(self._write)

    def came(self) -> bool:
        """Whether a stop signal came already (never waits)."""
        return bool(select.select([self._read], [], [], 0)[0])

    def wait(self, then: Callable[[], None] = lambda: None) -> None:
        """Wait for a stop signal; `then` runs in this thread once it came."""
        while not _stop_signal_in(os.read(self._read, 64)):
            pass
        then()


def _note(_number: int, _frame: FrameType | None) -> None:
    """The Python-level handler does nothing: the wake-up pipe carries the signal."""


def _stop_signal_in(data: bytes) -> bool:
    return any(byte in (int(number) for number in STOP_SIGNALS) for byte in data)
