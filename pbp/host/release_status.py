"""The release lines of `pbp status` (docs/design.md: Releases and upgrades): which data
format the folder holds and which pbp last wrote it, and for a game whose stamps differ
from the folder's (or that started under other rules than run now), its own."""
from __future__ import annotations

from pathlib import Path

from engine.core import Ruleset
from pbp.game.record import GameRecord
from pbp.release import DATA_FORMAT, UNSTAMPED_FORMAT, FolderStamp, read_stamp


def folder_line(data_dir: Path) -> str:
    stamp = read_stamp(data_dir)
    if stamp.data_format < DATA_FORMAT:
        return (f"Data folder: data format {stamp.data_format}, written by an earlier pbp; the next command "
                f"that writes (or `pbp upgrade`) upgrades it to format {DATA_FORMAT}.")
    return f"Data folder: data format {stamp.data_format}, last written by pbp {stamp.written_by or 'unknown'}."


def game_line(record: GameRecord, rules: Ruleset, folder: FolderStamp) -> str | None:
    """The game's stamps, when they differ from the folder's or the rules running now."""
    data_format = record.data_format or UNSTAMPED_FORMAT
    written_by = record.written_by or "an earlier pbp"
    started_under = record.rules_version or 1
    if ((data_format, record.written_by) == (folder.data_format, folder.written_by)
            and started_under == rules.card.rules_version):
        return None
    return (f"  record: data format {data_format}, last written by {written_by}; "
            f"started under {record.ruleset} rules version {started_under} "
            f"(this pbp runs version {rules.card.rules_version})")
