"""Progress of long work on stderr (docs/design.md: Command line): on a terminal, a bar that
overwrites its one line; elsewhere (a log, a pipe), a plain line now and then, and only
once the work has lasted a few seconds, so that a quick run writes nothing."""

from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

QUIET_SECONDS = 5.0  # a run shorter than this writes no progress where no one watches
EVERY_SECONDS = 10.0  # and after it, one line at most this often


class ProgressBar:
    def __init__(
        self,
        total: int,
        label: str,
        stream: TextIO | None = None,
        width: int = 30,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.terminal = self.stream.isatty()
        self.clock = clock
        self.started = clock()
        self.last_line = self.started + QUIET_SECONDS - EVERY_SECONDS

    def update(self, done: int) -> None:
        if self.terminal:
            filled = self.width * done // self.total
            bar = "#" * filled + "-" * (self.width - filled)
            self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total}")
            if done >= self.total:
                self.stream.write("\n")
        else:
            now = self.clock()
            if now - self.last_line < EVERY_SECONDS:
                return
            self.last_line = now
            self.stream.write(
                f"{self.label}: {done}/{self.total} games, {now - self.started:.0f} s\n"
            )
        self.stream.flush()
