"""A game's entry in the index of deadlines and wake-ups (pbp.storage.game_index;
docs/design.md: Many games, Typed rows), and what it says a cycle must do: its moments
(deadline, timed chores, outbox retry), its flags, whether a chore is due.

Outside the storage an entry is read as an `IndexEntry`, made by `from_row` at this edge;
the stored entry keeps its keys (`to_row` gives them back unchanged). An entry the index
could not compute (`unreadable`) never becomes one: the index looks at that game anyway."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

FLAGS = ("doubtful", "unsent", "approved")
RANK = {"deadline": 0, "reminders": 1, "tallies": 2, "prods": 2, "retry": 3}
# A timed chore of a running phase (reminders, running vote counts, prods to post in the
# thread), by its entry key and the key of the moment a cycle last saw to it.
SEEN = {"reminders": "reminded", "tallies": "tallied", "prods": "prodded"}
UNREADABLE = "unreadable"  # the key of an entry whose game file could not be read
Moment = tuple[float, int, str, str, str]  # when, rank, kind, game, phase


@dataclass(frozen=True)
class IndexEntry:
    """What a cycle needs to know of one game to leave it alone. Times are POSIX seconds,
    so that the index's questions are comparisons of numbers."""

    phase: str
    clock: str  # running, paused, waiting or over
    deadline: float | None  # None unless the clock runs
    reminders: tuple[float, ...] = ()  # the phase's timed chores, by SEEN's keys
    tallies: tuple[float, ...] = ()
    prods: tuple[float, ...] = ()
    unsent: bool = False  # the outbox holds mail not sent yet
    retry_at: float | None = None  # the earliest retry of a mail that failed for now
    approved: bool = False  # a public post is approved and not published yet
    seen: Mapping[str, float] = field(default_factory=dict)  # chore → when a cycle saw to it
    extra: Mapping[str, Any] = field(default_factory=dict)  # the index's own: stamp, changed

    def moments(self, chore: str) -> tuple[float, ...]:
        """The moments of `chore` (a key of SEEN)."""
        return {"reminders": self.reminders, "tallies": self.tallies, "prods": self.prods}[chore]

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> IndexEntry:
        return cls(
            phase=row["phase"],
            clock=row.get("clock", ""),
            deadline=row.get("deadline"),
            reminders=tuple(row.get("reminders", ())),
            tallies=tuple(row.get("tallies", ())),
            prods=tuple(row.get("prods", ())),
            unsent=row.get("unsent", False),
            retry_at=row.get("retry_at"),
            approved=row.get("approved", False),
            seen={seen: row[seen] for seen in SEEN.values() if seen in row},
            extra={key: value for key, value in row.items() if key not in _KNOWN},
        )

    def to_row(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "clock": self.clock,
            "deadline": self.deadline,
            "reminders": list(self.reminders),
            "tallies": list(self.tallies),
            "prods": list(self.prods),
            "unsent": self.unsent,
            "retry_at": self.retry_at,
            "approved": self.approved,
            **self.seen,
            **self.extra,
        }


_KNOWN = frozenset(IndexEntry.__dataclass_fields__) - {"seen", "extra"} | set(SEEN.values())


def game_stamp(games: Path, game_id: str) -> list[Any]:
    """What changes whenever a game's files are written: the document is replaced whole (a
    new inode), anything kept beside it under the same name only grows."""
    stamp: list[Any] = []
    for suffix in (".json", ".journal"):
        try:
            status = (games / f"{game_id}{suffix}").stat()
        except FileNotFoundError:
            stamp.append(None)
            continue
        stamp.append([status.st_ino, status.st_mtime_ns, status.st_size])
    return stamp


def chore_due(entry: IndexEntry, now: float, chore: str = "reminders") -> bool:
    """Whether a moment of the entry's phase for `chore` (reminders, tallies) has passed
    since a cycle last saw to it."""
    moments = entry.moments(chore)
    return (
        bool(moments)
        and entry.deadline is not None
        and moments[0] <= now < entry.deadline
        and any(entry.seen.get(SEEN[chore], 0.0) < moment <= now for moment in moments)
    )


def reminder_due(entry: IndexEntry, now: float) -> bool:
    return chore_due(entry, now, "reminders")


def moments_of(game_id: str, row: Mapping[str, Any]) -> Iterator[Moment]:
    """The stored entry's moments that may need a cycle: its deadline, its next reminder
    time not yet looked at, its outbox's earliest retry."""
    if UNREADABLE in row:
        return
    entry = IndexEntry.from_row(row)
    if entry.deadline is not None:
        yield entry.deadline, RANK["deadline"], "deadline", game_id, entry.phase
        for chore, seen in SEEN.items():
            after = entry.seen.get(seen, 0.0)
            pending = [moment for moment in entry.moments(chore) if moment > after]
            if pending:
                yield min(pending), RANK[chore], chore, game_id, entry.phase
    if entry.retry_at is not None:
        yield entry.retry_at, RANK["retry"], "retry", game_id, entry.phase


def flags_of(row: Mapping[str, Any]) -> set[str]:
    if UNREADABLE in row or row.get("changed", True):
        return {"doubtful"}
    entry = IndexEntry.from_row(row)
    return {flag for flag, on in (("unsent", entry.unsent), ("approved", entry.approved)) if on}
