"""A progress bar for long work, shown only when stderr is a terminal."""
from __future__ import annotations

import sys
from typing import TextIO


class ProgressBar:
    def __init__(self, total: int, label: str, stream: TextIO | None = None, width: int = 30):
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.width = width
        self.enabled = self.stream.isatty()

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        filled = self.width * done // self.total
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {done}/{self.total}")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()
