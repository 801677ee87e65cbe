"""What the moderator's commands share: where the settings are, opening the data folder.

Commands that write open it as the one writer: they wait (up to `LOCK_WAIT_SECONDS`) for a
running `pbp run` to finish its cycle, since the daemon holds the lock only while it works.
Commands that only read open it without the lock and never wait.
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace, _SubParsersAction
import os
import sys
from typing import TypeAlias

from pbp.errors import UserError
from pbp.composition import ComposedModerator, open_folder
from pbp.settings import Settings, load_settings
from pbp.storage.upgrading.upgrades import refuse_newer

# Long enough for any cycle of `pbp run` (a poll, a resolution, sending a phase's reports),
# short enough that a host who left an editor open elsewhere is told rather than left hanging.
# `PBP_LOCK_WAIT=<seconds>` changes it (0: never wait, e.g. in a script that must not block).
LOCK_WAIT_SECONDS = 60.0
LOCK_WAIT_VARIABLE = "PBP_LOCK_WAIT"
WAITING_LINE = "waiting for the running pbp to finish its cycle…"
# What `pbp` hands each command module's `register`: argparse's sub-command table.
Subparsers: TypeAlias = "_SubParsersAction[ArgumentParser]"
GAME_HELP = "the game's id, as `pbp status` lists it (e.g. inf1, ww2)"


def add_settings_arguments(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--settings",
        metavar="PATH",
        help="the settings file (default: $PBP_SETTINGS, else ./pbp.ini)",
    )
    parser.add_argument(
        "--data", metavar="DIR", help="the data folder (overrides the settings file)"
    )


def settings_of(args: Namespace) -> Settings:
    """The settings; every command that reads them refuses a data folder written by a newer
    pbp before it writes anything (docs/design.md: Releases and upgrades)."""
    settings = load_settings(args.settings, args.data)
    refuse_newer(settings.data)
    return settings


def say_waiting() -> None:
    print(WAITING_LINE, file=sys.stderr, flush=True)


def lock_wait() -> float:
    """How long a writing command waits for the lock: $PBP_LOCK_WAIT, else the default."""
    text = os.environ.get(LOCK_WAIT_VARIABLE, "").strip()
    if not text:
        return LOCK_WAIT_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        raise UserError(
            f"{LOCK_WAIT_VARIABLE}={text!r} is not a number of seconds; set it like "
            f"{LOCK_WAIT_VARIABLE}=30, or unset it for the default of {LOCK_WAIT_SECONDS:g} s."
        ) from None
    return max(seconds, 0.0)


def open_moderator(args: Namespace, wait: float | None = None) -> ComposedModerator:
    """The moderator as the one writer of the data folder. If another pbp holds the lock
    (e.g. `pbp run` in the middle of a cycle) this waits up to `wait` seconds, saying so
    once, and then stops with a one-line error."""
    settings = settings_of(args)
    wait = lock_wait() if wait is None else wait
    return ComposedModerator(
        settings, folder=open_folder(settings.data, writer=True, wait=wait, on_wait=say_waiting)
    )


def open_reader(args: Namespace) -> ComposedModerator:
    """The moderator over the data folder opened read-only: no lock, no waiting; each file
    is read once, whole (files are replaced atomically), so what is shown is consistent."""
    settings = settings_of(args)
    return ComposedModerator(settings, folder=open_folder(settings.data, writer=False))
