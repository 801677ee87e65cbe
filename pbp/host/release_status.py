"""The release lines of `pbp status` (docs/design.md: Releases and upgrades): which data
format the folder holds and which pbp last wrote it, and for a game whose stamps differ
from the folder's (or that started under other rules than run now), its own."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from engine.core import Ruleset
from pbp.game.record import GameRecord
from pbp.release import DATA_FORMAT, UNSTAMPED_FORMAT, FolderStamp, read_stamp


def folder_line(data_dir: Path) -> str:
    stamp = read_stamp(data_dir)
    if stamp.data_format < DATA_FORMAT:
        return (
            f"Data folder: data format {stamp.data_format}, written by an earlier pbp; the next"
            f" command that writes (or `pbp upgrade`) upgrades it to format {DATA_FORMAT}."
        )
    return (
        f"Data folder: data format {stamp.data_format}, last written by pbp"
        f" {stamp.written_by or 'unknown'}."
    )


def game_line(
    record: GameRecord, rules_for: Callable[[str], Ruleset], folder: FolderStamp
) -> str | None:
    """The game's stamps, when they differ from the folder's or the rules running now (a
    ruleset this pbp does not know is left to the game's other lines to report)."""
    data_format = record.data_format or UNSTAMPED_FORMAT
    written_by = f"pbp {record.written_by}" if record.written_by else "an earlier pbp"
    started_under = record.rules_version or 1
    try:
        runs = rules_for(record.ruleset).card.rules_version
    except Exception:  # noqa: BLE001 - status must show the rest of the game anyway
        runs = started_under
    if (data_format, record.written_by) == (
        folder.data_format,
        folder.written_by,
    ) and started_under == runs:
        return None
    return (
        f"  record: data format {data_format}, last written by {written_by}; started under "
        f"{record.ruleset} rules version {started_under} (this pbp runs version {runs})"
    )
