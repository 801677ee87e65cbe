"""The thread watch (issue 6; rules/werewolf.md Day 5: "The public thread watch warns the
host"): read the game's thread and find comments by players who may not post — the dead,
and a player silenced by the Howler during their silenced day.

Players are matched to comment authors through the roster's `forum_name`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping


@dataclass(frozen=True)
class Warning:
    comment: str
    author: str
    player: str
    why: str

    def __str__(self) -> str:
        return f"{self.player} (u/{self.author}) posted in the thread although {self.why} (comment {self.comment})."


def silenced_players(public_view: Mapping) -> set[str]:
    """Who is silenced today, when the public view tells (Werewolf: the Howler)."""
    silenced = public_view.get("silenced") or []
    return {silenced} if isinstance(silenced, str) else set(silenced)


def watch_thread(comments: Iterable[Mapping], roster: Iterable[Mapping], public_view: Mapping,
                 seen: Iterable[str] = (), silenced: Iterable[str] = ()) -> list[Warning]:
    """Warnings for comments not seen before by dead or silenced players."""
    by_forum_name = {entry["forum_name"].lower(): entry["name"] for entry in roster if entry.get("forum_name")}
    alive = {p["name"]: bool(p.get("alive")) for p in public_view.get("players", [])}
    quiet = set(silenced) | silenced_players(public_view)
    seen = set(seen)
    warnings = []
    for comment in comments:
        if comment["id"] in seen:
            continue
        player = by_forum_name.get(str(comment.get("author", "")).lower())
        if player is None:
            continue
        if alive.get(player) is False:
            warnings.append(Warning(comment["id"], comment["author"], player, "they are dead"))
        elif player in quiet:
            warnings.append(Warning(comment["id"], comment["author"], player, "they are silenced today"))
    return warnings
