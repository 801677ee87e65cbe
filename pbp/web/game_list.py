"""What the games page shows of each game, and the versions the desk's pages poll
(docs/design.md: The host's desk in the browser — the games page, live updates).

Each game's part is `pbp status --json`'s (pbp.host.status_report) with what `pbp status`
adds in words: the phase by its name, who has orders in and who is awaited, the drafts
waiting for approval, the messages to the host not answered yet. Making it reads the
game's files and decodes its state; the desk is one long-lived process, so it keeps each
game's part while the game's files are unchanged (their stamp: inode, size and time of
change, pbp.storage.game_index). While the index of deadlines is clean (no writer is in
the middle of a session: a writer marks it unclean before it opens a game file and
rewrites it when it closes), the index file's own stamp vouches for every game's files,
so a page of a thousand games reads one stamp instead of two thousand."""

from __future__ import annotations

import hashlib
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from pbp.conversations.log import waiting_questions
from pbp.host.status import RulesFor, drafts_waiting, orders_facts
from pbp.host.status_report import OVERDUE_AFTER, game_status
from pbp.game.stalls import stall_notes
from pbp.game.stored import record_of
from pbp.storage.datafolder import DataFolder
from pbp.storage.index_moments import game_stamp
from pbp.timezones import as_utc

# (data folder, game id) -> (the folder's stamp, the game's stall note, its part, the
# stamp of the game's files) as last made.
_KEPT: dict[tuple[str, str], tuple[Any, Any, dict[str, Any], Any]] = {}
# data folder -> (the folder's stamp, its game ids, every game's part, the earliest moment
# one of them becomes overdue, the parts with a problem): the whole list, while the
# folder's stamp vouches for it.
_LISTS: dict[str, tuple[Any, list[str], list[dict[str, Any]], float, list[dict[str, Any]]]] = {}
_KEPT_LOCK = threading.Lock()


def every_game(
    folder: DataFolder, now: datetime, rules_for: RulesFor
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each game's part (`game_part`), in the registry's order, and those with a problem
    (mail failing, a resolution waiting)."""
    stamp = folder_stamp(folder)
    kept = _LISTS.get(str(folder.path))
    if stamp is not None and kept is not None and kept[0] == stamp and now.timestamp() <= kept[3]:
        return kept[2], kept[4]
    ids = folder.game_ids()
    stalls = {note["game"]: note for note in stall_notes(folder)}
    parts = [game_part(folder, gid, stalls.get(gid), now, rules_for, stamp) for gid in ids]
    overdue = min(
        (
            part["overdue_at"]
            for part in parts
            if part["overdue_at"] and not part["resolution_waits"]
        ),
        default=float("inf"),
    )
    troubled = [part for part in parts if part["mail"]["errors"] or part["resolution_waits"]]
    with _KEPT_LOCK:
        _LISTS[str(folder.path)] = (stamp, ids, parts, overdue, troubled)
    return parts, troubled


def folder_stamp(folder: DataFolder) -> Any:
    """A stamp that changes whenever any game file changes, while the index of deadlines
    is clean (see the module's docstring); None when it cannot vouch for the games."""
    if not folder.index.trusted or folder.index.unclean_mark.exists():
        return None
    return [_file_stamp(folder.index.path), _file_stamp(folder.path / "registry.json")]


def game_part(
    folder: DataFolder,
    game_id: str,
    stall: dict[str, str] | None,
    now: datetime,
    rules_for: RulesFor,
    stamp: Any = None,
) -> dict[str, Any]:
    """The game's part of the games page: `game_status`'s, with `phase_name`, `orders`
    (pbp.host.status.orders_facts), `drafts` (the phases of the drafts waiting) and
    `questions` (players whose message to the host waits for an answer). `stamp`: the
    folder's (`folder_stamp`), if it vouches for the game's files."""
    key = (str(folder.path), game_id)
    kept = _KEPT.get(key)
    if kept is not None and kept[1] == stall and not _newly_overdue(kept[2], now):
        if stamp is not None and kept[0] == stamp:
            return kept[2]
        files = game_stamp(folder.path / "games", game_id)
        if kept[3] == files:
            with _KEPT_LOCK:
                _KEPT[key] = (stamp, stall, kept[2], files)
            return kept[2]
    else:
        files = game_stamp(folder.path / "games", game_id)
    file = folder.game(game_id)
    part = game_status(file, stall, now)
    record = record_of(file)
    part["phase_name"] = _phase_name(record.ruleset, record.phase_id, rules_for)
    part["orders"] = orders_facts(file, record, rules_for) if record.phase_id else None
    part["drafts"] = [row.phase for row in drafts_waiting(file) if row.kind != "tally"]
    part["questions"] = [player for player, _phase in waiting_questions(file)]
    part["overdue_at"] = (
        (as_utc(part["deadline"]) + OVERDUE_AFTER).timestamp() if part["deadline"] else None
    )
    with _KEPT_LOCK:
        _KEPT[key] = (stamp, stall, part, files)
    return part


def _newly_overdue(part: dict[str, Any], now: datetime) -> bool:
    """Whether the deadline of a kept part has since passed long enough to be overdue."""
    return (
        part["overdue_at"] is not None
        and not part["resolution_waits"]
        and part["overdue_at"] < now.timestamp()
    )


def _phase_name(ruleset: str, phase_id: str, rules_for: RulesFor) -> str:
    """The phase in words ("Day 3"), or its id when the ruleset cannot be loaded."""
    if not phase_id:
        return ""
    try:
        return str(rules_for(ruleset).card.phase_words(phase_id))
    except Exception:  # noqa: BLE001 - the page shows the rest of the game anyway
        return phase_id


def _file_stamp(path: Path) -> list[Any] | None:
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    return [status.st_ino, status.st_mtime_ns, status.st_size]


def folder_version(folder: DataFolder) -> str:
    """Changes whenever a game's files or the registry (games added, stalls noted) change:
    what the games page polls."""
    stamps = folder_stamp(folder) or [_file_stamp(folder.path / "registry.json")] + [
        game_stamp(folder.path / "games", gid) for gid in folder.game_ids()
    ]
    return hashlib.sha256(repr(stamps).encode()).hexdigest()[:16]


def game_version(data: Path, game_id: str) -> str:
    """Changes whenever the game's files or the registry (its stall note, the
    substitutes' list) change: what a game's page polls."""
    stamps = [
        _file_stamp(data / "registry.json"),
        game_stamp(data / "signups", game_id),
        game_stamp(data / "games", game_id),
    ]
    return hashlib.sha256(repr(stamps).encode()).hexdigest()[:16]
