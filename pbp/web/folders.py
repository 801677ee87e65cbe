"""How the desk opens the data folder: every page as a reader (no lock, never waits for
`pbp run`), every action as the one writer, as the commands do (docs/design.md: The
host's desk in the browser)."""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator

from pbp.composition import ComposedModerator, open_folder
from pbp.settings import Settings

# How long an action waits for `pbp run` to finish its cycle (as a command does).
ACTION_LOCK_WAIT = 60.0


def reader(settings: Settings) -> ComposedModerator:
    """The moderator over the data folder opened read-only, for one page."""
    return ComposedModerator(settings, folder=open_folder(settings.data, writer=False))


class Waited:
    """Whether an action had to wait for the lock, and how long: the page says so."""

    def __init__(self) -> None:
        self.started: float | None = None
        self.seconds = 0.0

    def begin(self) -> None:
        self.started = time.monotonic()

    @property
    def note(self) -> str:
        if self.started is None:
            return ""
        return (
            f"This waited {self.seconds:.0f} s for the running pbp to finish its cycle."
            if self.seconds >= 1
            else "This waited a moment for the running pbp to finish its cycle."
        )


@contextmanager
def writer(settings: Settings, waited: Waited | None = None) -> Iterator[ComposedModerator]:
    """The moderator as the data folder's one writer, for one action; `waited` learns
    whether it waited for `pbp run`'s cycle. Mail the action queues is left for `pbp run`
    (or sent by the action's own code, as its command does)."""
    waited = waited if waited is not None else Waited()
    folder = open_folder(settings.data, writer=True, wait=ACTION_LOCK_WAIT, on_wait=waited.begin)
    if waited.started is not None:
        waited.seconds = time.monotonic() - waited.started
    with ComposedModerator(settings, folder=folder) as moderator:
        yield moderator
