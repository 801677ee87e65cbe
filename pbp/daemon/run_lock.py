"""The locks `pbp run` meets (docs/design.md: Reliability rules): its own, one daemon per
data folder; the writer lock a host command may hold; and the last word it writes for
`pbp status` when it stops. For pbp.daemon.run."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from pbp.durable import WriterLock
from pbp.errors import UserError
from pbp.storage.daemon_state import write_state
from pbp.storage.datafolder import DataFolder
from pbp.timezones import to_text


class AlreadyRunning(UserError):
    pass


def take_run_lock(run_lock: WriterLock, data: Path) -> None:
    """One daemon per data folder: a second one is told which process runs already."""
    try:
        run_lock.acquire()
    except UserError:
        try:
            holder = run_lock.path.read_text().strip()
        except OSError:
            holder = "?"
        raise AlreadyRunning(
            f"pbp run is already running for the data folder {data} "
            f"(process {holder}); one is enough."
        ) from None


def lock_holder(data: Path) -> str:
    """The process that holds the data folder's writer lock, or `?`."""
    try:
        return (Path(data) / "pbp.lock").read_text().strip() or "?"
    except OSError:
        return "?"


def say_stopped(data: Path, state: dict[str, Any], now: datetime) -> None:
    """Tell `pbp status` the daemon stopped (only if the lock comes quickly: a host
    command may hold it, and then status sees the process is gone anyway)."""
    try:
        folder = DataFolder(data, writer=True, wait=2.0)
    except UserError:
        return
    try:
        write_state(data, {**state, "stopped": to_text(now)})
    finally:
        folder.close()
