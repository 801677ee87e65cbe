"""When `pbp run` must wake up next, read from storage (docs/design.md: Reliability rules,
Deadlines): the earliest deadline, reminder time or outbox retry. APScheduler is only the
alarm clock; this is what it is set to, recomputed after every cycle."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pbp.game.clock import Running, clock_of
from pbp.game.stalls import stalled_phases
from pbp.outbox import Outbox
from pbp.reminders import DEFAULT_OFFSETS, OPTION as REMINDERS, next_reminder_time, reminder_offsets
from pbp.settings import Settings
from pbp.datafolder import DataFolder
from pbp.timezones import TimeInputError, as_utc


@dataclass(frozen=True)
class WakeUp:
    when: datetime
    reason: str


def next_wake_up(folder: DataFolder, settings: Settings, now: datetime, outbox: Outbox | None = None) -> WakeUp | None:
    """The earliest moment, read from storage, at which a cycle has work that a poll
    might come too late for: a deadline, a reminder time, an outbox retry. `outbox`, if
    given, is the cycle's own (it has scanned the ledger already)."""
    moments: list[WakeUp] = []
    stalled = stalled_phases(folder)
    for game_id in folder.game_ids():
        try:
            record = folder.game(game_id).record()
        except Exception:  # an unreadable game file is shown by pbp status; the others go on
            continue
        clock = clock_of(record)
        if not isinstance(clock, Running) or clock.deadline is None:
            continue  # over, paused, or waiting for a public post: no deadline yet
        if stalled.get(record["id"]) == record["phase_id"]:
            continue  # its resolution failed: it waits for the host, not for the alarm
        deadline = clock.deadline
        moments.append(WakeUp(deadline, f"deadline of {record['id']} {record['phase_id']}"))
        try:
            offsets = reminder_offsets(record.get("moderator_options", {}).get(REMINDERS), DEFAULT_OFFSETS)
        except TimeInputError:
            offsets = ()
        reminder = next_reminder_time(opened_at=as_utc(record["opened"]), deadline=deadline, now=now,
                                      offsets=offsets)
        if reminder is not None:
            moments.append(WakeUp(reminder, f"reminders of {record['id']} {record['phase_id']}"))
    retry = (outbox or Outbox(folder, settings.from_address)).next_attempt()
    if retry is not None:
        moments.append(WakeUp(as_utc(retry), "outbox retry"))
    return min(moments, key=lambda wake: wake.when) if moments else None


def folder_stamp(data: Path) -> tuple:
    """What changes whenever any pbp process writes a game or the registry: each file's
    inode, mtime and size (a document's write replaces the file, so its inode changes; a
    journal only grows)."""
    stamps = []
    games = Path(data) / "games"
    for path in [Path(data) / "registry.json", *sorted([*games.glob("*.json"), *games.glob("*.journal")])]:
        try:
            status = path.stat()
        except FileNotFoundError:
            continue
        stamps.append((path.name, status.st_ino, status.st_mtime_ns, status.st_size))
    return tuple(stamps)
