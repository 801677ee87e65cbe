"""Phases whose resolution failed (docs/design.md: Hostile input — "one bad game never stops
the cycle for the others"). A resolution that raises is a bug or a damaged game file: the
daemon notes the phase here, in the registry, and skips it (no retry storm, no wake-up for
its deadline) while every other game goes on; `pbp status` shows it and `pbp advance`
tries again. A note names one phase: once the game has moved on it no longer applies."""

from __future__ import annotations

from datetime import datetime

from tinydb import Query

from pbp.timezones import to_text
from pbp.storage.datafolder import DataFolder

TABLE = "stalled"


def stalled_phases(folder: DataFolder) -> dict[str, str]:
    """Game id -> the phase whose resolution failed."""
    return {row["game"]: row["phase"] for row in folder.registry.table(TABLE, cache_size=0).all()}


def stall_notes(folder: DataFolder) -> list[dict[str, str]]:
    return [dict(row) for row in folder.registry.table(TABLE, cache_size=0).all()]


def note_stall(folder: DataFolder, game: str, phase: str, error: str, when: datetime) -> None:
    table = folder.registry.table(TABLE, cache_size=0)
    table.remove(Query().game == game)
    table.insert({"game": game, "phase": phase, "error": error[:300], "at": to_text(when)})
