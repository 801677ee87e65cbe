"""When `pbp run` must wake up next, read from storage (docs/design.md: Reliability rules,
Deadlines, Many games): the earliest deadline, reminder time or outbox retry. APScheduler is
only the alarm clock; this is what it is set to, recomputed after every cycle."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pbp.timezones import as_utc
from pbp.game.stalls import stalled_phases
from pbp.storage.open_games import OPEN, open_games
from pbp.storage.datafolder import DataFolder
from pbp.storage.game_index import FILE_NAME as GAME_INDEX, UNCLEAN_MARK

WORDS = {"tallies": "running count", "prods": "prods to post"}


@dataclass(frozen=True)
class WakeUp:
    when: datetime
    reason: str


def next_wake_up(folder: DataFolder, now: datetime) -> WakeUp | None:
    """The earliest moment at which a cycle has work that a poll might come too late for:
    a deadline, a reminder time, an outbox retry, a sign-up's closing time. Read from the
    index of deadlines and wake-ups (pbp.storage.game_index), brought up to date first for the
    games this process opened (every game, when the index cannot vouch for them), and
    from the few games open for sign-ups (their own files; no game file is opened)."""
    alarms = [alarm for alarm in (_indexed_wake_up(folder, now), _signup_closing(folder)) if alarm]
    return min(alarms, key=lambda alarm: alarm.when) if alarms else None


def _indexed_wake_up(folder: DataFolder, now: datetime) -> WakeUp | None:
    stalled = stalled_phases(folder)
    folder.index.refresh(folder)
    later = now.timestamp()
    for when, _, kind, game_id, phase in folder.index.timeline():
        if kind == "retry":
            return WakeUp(_moment(when), "outbox retry")
        if stalled.get(game_id) == phase:
            continue  # its resolution failed: it waits for the host, not for the alarm
        if kind in ("reminders", "tallies", "prods") and when <= later:
            continue  # passed: this cycle has seen to it (or the deadline has)
        return WakeUp(_moment(when), f"{WORDS.get(kind, kind)} of {game_id} {phase}")
    return None


def _signup_closing(folder: DataFolder) -> WakeUp | None:
    """The earliest closing time of a game still open for sign-ups that the cycle has not
    dealt with yet (pbp.signups.starting): once the host was told it closed short, or its
    start failed, it waits for the host, not for the alarm."""
    closing = [
        (as_utc(record.closes), record.id)
        for record in (signups.record for signups in open_games(folder))
        if record.status == OPEN and not record.host_told and not record.start_failed
    ]
    if not closing:
        return None
    when, game_id = min(closing)
    return WakeUp(when, f"sign-ups of {game_id} close")


def _moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, timezone.utc)


def folder_stamp(data: Path) -> tuple[Any, ...]:
    """What changes whenever any pbp process writes a game or the registry: the inode,
    mtime and size of the registry, of the index (pbp.storage.game_index) and of its unclean mark,
    which a writer makes before it opens a game file and removes once it has replaced the
    index; a few stat calls, however many games there are."""
    stamps = []
    for path in [Path(data) / "registry.json", Path(data) / GAME_INDEX, Path(data) / UNCLEAN_MARK]:
        try:
            status = path.stat()
        except FileNotFoundError:
            continue
        stamps.append((path.name, status.st_ino, status.st_mtime_ns, status.st_size))
    return tuple(stamps)
