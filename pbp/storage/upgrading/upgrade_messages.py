"""The upgrade to data format 3 of a game's channel messages (docs/design.md: Storage —
where each piece of a game lives; Releases and upgrades): they move from the game's
document, which each relayed message rewrote whole, into its journal, one appended line
holding them all, each row with the day the daily cap counts it in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbp.storage.game_storage import VERSION_KEY
from pbp.storage.journal import encode, replay

MESSAGES = "messages"


def messages_into_journal(path: Path, document: dict[str, Any]) -> bytes | None:
    """The game's journal with one more line inserting the messages `document` (the game
    file at `path`) holds, which are taken out of it; None when it holds none. The line
    carries the document's own version, as a commit that changes only the journal does,
    and follows the journal's valid part (a torn tail is dropped, as a writer would)."""
    table = document.pop(MESSAGES, None)
    if not table:
        return None
    version = int(document.get(VERSION_KEY, {}).get("version", 0))
    journal = path.with_suffix(".journal")
    _, valid = replay(journal, version)
    kept = journal.read_bytes()[:valid] if journal.exists() else b""
    ops = [
        ["i", MESSAGES, int(doc_id), {**row, "day": str(row.get("received", ""))[:10]}]
        for doc_id, row in sorted(table.items(), key=lambda item: int(item[0]))
    ]
    return kept + encode(version, ops)
