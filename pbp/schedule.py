"""Phase deadlines (design.md: Reliability rules, Deadlines; issue 4: Games).

A game's schedule maps a phase kind (`class`, `movement`, `decision`, `night`, …) to a
duration; a phase's deadline is the moment it opened plus its kind's duration.
Durations are written `90s`, `10m`, `2h`, `1d` (or combined: `1d12h`).
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from pbp.errors import UserError

# Sensible defaults per phase kind: a day for most phases, two for the phases where
# players talk things over (Infiltration decisions, Werewolf day votes).
DEFAULT_SCHEDULE = {
    "class": "24h",
    "movement": "24h",
    "decision": "48h",
    "night": "24h",
    "witch": "12h",
    "nominate": "24h",
    "runoff": "12h",
    "vote": "48h",
}
FALLBACK_DURATION = "24h"

_PART = re.compile(r"(\d+)([smhd])")
_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_duration(text: str) -> timedelta:
    """`90s`, `10m`, `2h`, `1d`, `1d12h` -> timedelta; anything else is a UserError."""
    compact = text.strip().lower().replace(" ", "")
    if not compact or _PART.sub("", compact):
        raise UserError(f"Duration {text!r} is not like 90s, 10m, 2h or 1d; write a number and a unit.")
    seconds = sum(int(n) * _UNITS[u] for n, u in _PART.findall(compact))
    if seconds <= 0:
        raise UserError(f"Duration {text!r} must be longer than zero.")
    return timedelta(seconds=seconds)


def parse_schedule(text: str | None) -> dict[str, str]:
    """`class=24h,movement=24h,decision=48h` -> {kind: duration}; `default=` sets every
    kind not named. Unnamed kinds keep DEFAULT_SCHEDULE."""
    schedule = dict(DEFAULT_SCHEDULE)
    schedule["default"] = FALLBACK_DURATION
    if not text:
        return schedule
    given: dict[str, str] = {}
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        kind, sep, duration = part.partition("=")
        if not sep or not kind:
            raise UserError(f"Schedule entry {part!r} is not KIND=DURATION; write it like movement=24h.")
        parse_duration(duration)
        given[kind.strip().lower()] = duration.strip().lower()
    if "default" in given:
        schedule = {kind: given["default"] for kind in schedule}
    schedule.update(given)
    return schedule


def phase_duration(schedule: dict[str, str], kind: str) -> timedelta:
    """The deadline length for a phase of `kind` (a Werewolf `D2-runoff` has kind
    `runoff`; unknown kinds use the schedule's default)."""
    return parse_duration(schedule.get(kind, schedule.get("default", FALLBACK_DURATION)))


def deadline_after(opened: datetime, schedule: dict[str, str], kind: str) -> datetime:
    return opened + phase_duration(schedule, kind)


def now() -> datetime:
    """The shell's clock (the engine never reads one)."""
    return datetime.now(timezone.utc)


def to_text(moment: datetime) -> str:
    """ISO 8601 UTC, second precision: how moments are stored."""
    return moment.astimezone(timezone.utc).replace(microsecond=0).isoformat()


def from_text(text: str) -> datetime:
    return datetime.fromisoformat(text)


def human(moment: datetime | str) -> str:
    """`2024-05-01 14:02 UTC`, what players read."""
    if isinstance(moment, str):
        moment = from_text(moment)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
