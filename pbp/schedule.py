"""Phase deadlines, and the backoff between retries (docs/design.md: Reliability rules,
Deadlines).

A game's schedule maps each phase kind of its ruleset to a duration; a phase's deadline is
the moment it opened plus its kind's duration. The kinds and their default lengths are the
ruleset card's (`RulesetCard.phase_kinds`); the schedule is stored with the game, so a
later change of a default leaves running games as they were.
Durations are written as the host writes them everywhere (`90s`, `10m`, `2h`, `1d12h`) and
read by `pbp.timezones.parse_duration`, the one reader of times people type.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Mapping, Sequence

from engine.core import PhaseKind
from pbp.errors import UserError
from pbp.timezones import parse_duration

# The length of a phase whose kind a schedule does not name (a game stored before its
# ruleset had that kind).
FALLBACK_DURATION = "24h"


def parse_schedule(text: str | None, phase_kinds: Sequence[PhaseKind]) -> dict[str, str]:
    """`class=24h,movement=24h,decision=48h` -> {kind: duration}; `default=` sets every
    kind not named. Unnamed kinds keep their card's length (`PhaseKind.length`). Any name
    but the ruleset's `phase_kinds` is refused: a typo would otherwise leave that phase its
    default length without a word."""
    kinds = [kind.kind for kind in phase_kinds]
    schedule = {kind.kind: kind.length for kind in phase_kinds}
    schedule["default"] = FALLBACK_DURATION
    if not text:
        return schedule
    given: dict[str, str] = {}
    for part in re.split(r"[,\s]+", text.strip()):
        if not part:
            continue
        kind, sep, duration = part.partition("=")
        if not sep or not kind:
            raise UserError(
                f"Schedule entry {part!r} is not KIND=DURATION; write it like movement=24h."
            )
        kind = kind.strip().lower()
        if kind not in kinds and kind != "default":
            raise UserError(
                f"Schedule entry {part!r}: this ruleset has no phase kind {kind!r}; "
                f"its kinds are {', '.join(kinds)} (or default=…)."
            )
        parse_duration(duration)
        given[kind] = duration.strip().lower()
    if "default" in given:
        schedule = {kind: given["default"] for kind in schedule}
    schedule.update(given)
    return schedule


def phase_duration(schedule: Mapping[str, str], kind: str) -> timedelta:
    """The deadline length for a phase of `kind` (a Werewolf `D2-runoff` has kind
    `runoff`; unknown kinds use the schedule's default)."""
    return parse_duration(schedule.get(kind, schedule.get("default", FALLBACK_DURATION)))


def deadline_after(opened: datetime, schedule: Mapping[str, str], kind: str) -> datetime:
    return opened + phase_duration(schedule, kind)


@dataclass(frozen=True)
class Backoff:
    """How long to wait before trying again: `first` seconds after the first failure,
    doubling with each further failure, never more than `longest`. The one backoff of the
    shell; each retrying part holds its own policy as a value of this class."""

    first: float
    longest: float

    def seconds(self, failures: int) -> float:
        doublings = min(
            max(failures - 1, 0), 64
        )  # past 64 doublings every policy is at its longest
        return min(self.first * 2.0**doublings, self.longest)

    def delay(self, failures: int) -> timedelta:
        return timedelta(seconds=self.seconds(failures))


def now() -> datetime:
    """The shell's clock (the engine never reads one)."""
    return datetime.now(timezone.utc)
