"""When `pbp run` must wake up next, read from storage (docs/design.md: Reliability rules,
Deadlines, Many games): the earliest deadline, reminder time or outbox retry. APScheduler is only the
alarm clock; this is what it is set to, recomputed after every cycle."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from pbp.game.stalls import stalled_phases
from pbp.datafolder import DataFolder
from pbp.game_index import FILE_NAME as GAME_INDEX


@dataclass(frozen=True)
class WakeUp:
    when: datetime
    reason: str


def next_wake_up(folder: DataFolder, now: datetime) -> WakeUp | None:
    """The earliest moment at which a cycle has work that a poll might come too late for:
    a deadline, a reminder time, an outbox retry. Read from the index of deadlines and
    wake-ups (pbp.game_index), brought up to date first for the games this process opened
    (every game, when the index cannot vouch for them)."""
    moments: list[WakeUp] = []
    retries: list[float] = []
    stalled = stalled_phases(folder)
    entries = folder.index.refresh(folder)
    later = now.timestamp()
    for game_id in folder.game_ids():
        entry = entries.get(game_id, {})
        if "unreadable" in entry:
            continue  # an unreadable game file is shown by pbp status; the others go on
        if entry["retry_at"] is not None:
            retries.append(entry["retry_at"])
        if entry["deadline"] is None:
            continue  # over, paused, or waiting for a public post: no deadline yet
        if stalled.get(game_id) == entry["phase"]:
            continue  # its resolution failed: it waits for the host, not for the alarm
        moments.append(WakeUp(_moment(entry["deadline"]), f"deadline of {game_id} {entry['phase']}"))
        reminders = [moment for moment in entry["reminders"] if later < moment]
        if reminders:
            moments.append(WakeUp(_moment(min(reminders)), f"reminders of {game_id} {entry['phase']}"))
    if retries:
        moments.append(WakeUp(_moment(min(retries)), "outbox retry"))
    return min(moments, key=lambda wake: wake.when) if moments else None


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)


def folder_stamp(data: Path) -> tuple:
    """What changes whenever any pbp process writes a game or the registry: the inode,
    mtime and size of the registry and of the index (pbp.game_index), which a writer
    replaces before it opens a game file and again when it is done; a few stat calls,
    however many games there are."""
    stamps = []
    for path in [Path(data) / "registry.json", Path(data) / GAME_INDEX]:
        try:
            status = path.stat()
        except FileNotFoundError:
            continue
        stamps.append((path.name, status.st_ino, status.st_mtime_ns, status.st_size))
    return tuple(stamps)
