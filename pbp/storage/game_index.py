"""The index of deadlines and wake-ups (docs/design.md: Many games): `<data>/game_index.json`,
one small entry per game — its clock, deadline, reminder times, whether its outbox holds
unsent mail and whether it has an approved public post — so that a daemon cycle with
nothing to do reads this one file and opens no game file.

The index is a filter that may say "look at this game" too often but never too seldom:
every question a cycle asks (`games`) returns each game whose entry says it has work now,
plus every game the index cannot vouch for. It cannot vouch for

- any game, while `game_index.unclean` exists beside it (or the file says `clean: false`):
  a writer that opens a game file first makes that mark (durably, before the game file
  can change), writes the refreshed entries when it closes the data folder and only then
  removes the mark. A crash in between leaves the mark, and the next writer rebuilds every
  entry from the game files. (The mark is a file of its own, so that making it does not
  rewrite an index of a thousand entries each time a game is written.);
- a game the writer holding the folder has opened in this session (its entry is
  recomputed when the session ends);
- a game whose file changed since a cycle last looked at it (`changed`): what only a
  change can start (every order in, a clock waiting for a post that is now published)
  is looked for once after each change;
- a game the index has no entry for, or whose file could not be read.

`pbp run` rebuilds the whole index when it starts, so a game file restored from a backup
by hand is indexed too. Entries are computed by pbp.game.index_entry.
"""

from __future__ import annotations

import heapq
import json
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Protocol

from pbp.durable import fsync_folder, open_private, write_atomically
from pbp.storage.index_moments import (
    FLAGS,
    SEEN,
    UNREADABLE,
    IndexEntry,
    Moment,
    chore_due,
    flags_of,
    game_stamp,
    moments_of,
)

FILE_NAME = "game_index.json"
UNCLEAN_MARK = "game_index.unclean"
FORMAT = 2
# How many of the earliest moments the file's first line keeps: an idle cycle reads that
# line alone and parses the entries (a thousand games' worth) only when something is due.
TIMELINE = 16
Entry = dict[str, Any]  # an entry as stored; read past the storage as an IndexEntry
# How an entry is computed from a game file (pbp.game.index_entry.entry_of). It reads game
# records, drafts and the outbox, which all sit above the data folder, so the composition
# root hands it in; a session without it never vouches for the index.
EntryOf = Callable[[Any], IndexEntry]


class GameFiles(Protocol):
    """What the index reads of the data folder that opens it (pbp.storage.datafolder.DataFolder)."""

    def game_ids(self) -> list[str]: ...

    def game(self, game_id: str) -> Any: ...


class GameIndex:
    """The index as one process sees it during one session with the data folder. The file
    holds two lines: a summary (the games, the earliest moments, the flagged games) and
    the entries, parsed only when a question needs them."""

    def __init__(self, data: Path, writer: bool, entry_of: EntryOf | None = None):
        self.path = Path(data) / FILE_NAME
        self.unclean_mark = Path(data) / UNCLEAN_MARK
        self.games_folder = Path(data) / "games"
        self.writer = writer
        summary, self._raw = self._load()
        self.trusted = (
            summary.get("format") == FORMAT
            and summary.get("clean") is True
            and not self.unclean_mark.exists()
        )
        if not self.trusted:
            summary, self._raw = {}, b"{}"
        self.summary = summary
        self._sets: dict[str, set[str]] = {}  # the summary's lists as sets, made when first asked
        self._entries: dict[str, Entry] | None = None
        self.base: dict[str, Entry] | None = None  # the entries as the session found them
        # The games this session's writer opened: their entries may be stale.
        self.opened: set[str] = set()
        self.swept = False  # a cycle looked at every game the index named
        self.marked = False  # this session made the unclean mark
        self.rebuild = not self.trusted
        self.dirty = False  # entries changed in memory since they were read
        self.entry_of = entry_of  # see EntryOf

    def _load(self) -> tuple[dict[str, Any], bytes]:
        try:
            data = self.path.read_bytes()
            first, _, rest = data.partition(b"\n")
            summary = json.loads(first)
        except (OSError, ValueError):
            return {}, b"{}"
        return (summary, rest) if isinstance(summary, dict) else ({}, b"{}")

    @property
    def entries(self) -> dict[str, Entry]:
        if self._entries is None:
            try:
                self._entries = json.loads(self._raw)
            except ValueError:  # a torn file cannot be: it is replaced whole; but be sure
                self._entries, self.rebuild = {}, True
            self.base = {game_id: dict(entry) for game_id, entry in self._entries.items()}
        return self._entries

    def _summarise(self) -> None:
        entries = self.entries
        flags: dict[str, list[str]] = {flag: [] for flag in FLAGS}
        for game_id, entry in sorted(entries.items()):  # the same entries write the same bytes
            for flag in flags_of(entry):
                flags[flag].append(game_id)
        timeline = heapq.nsmallest(
            TIMELINE + 1, (m for g, e in entries.items() for m in moments_of(g, e))
        )
        self.summary = {
            "format": FORMAT,
            "clean": True,
            "games": sorted(entries),
            "flags": flags,
            "timeline": timeline[:TIMELINE],
            "more": len(timeline) > TIMELINE,
        }
        self._sets = {}

    def _write_clean(self) -> None:
        """The entries, marked clean; then the unclean mark goes."""
        body = (
            self._raw
            if self._entries is None
            else json.dumps(self._entries, sort_keys=True, separators=(",", ":")).encode("utf-8")
        )
        head = json.dumps({**self.summary, "format": FORMAT, "clean": True}, separators=(",", ":"))
        write_atomically(self.path, head.encode("utf-8") + b"\n" + body)
        self.unclean_mark.unlink(missing_ok=True)  # a crash that undoes this only costs a rebuild

    def _flagged(self, flag: str) -> set[str]:
        if flag not in self._sets:
            self._sets[flag] = set(self.summary.get("flags", {}).get(flag, ()))
        return self._sets[flag]

    def _known(self) -> set[str]:
        """The games the summary has entries for."""
        if "games" not in self._sets:
            self._sets["games"] = set(self.summary.get("games", ()))
        return self._sets["games"]

    # ------------------------------------------------------------------ what the writer tells it
    def opening(self, game_id: str) -> None:
        """A writer is about to open (and maybe write) a game file: from now until the
        session's end the index on disk vouches for no game."""
        if not self.marked:
            open_private(self.unclean_mark, "wb").close()
            fsync_folder(self.path.parent)  # the mark is on disk before the game file can change
            self.marked = True
        self.opened.add(game_id)

    def look_at_every_game(self) -> None:
        """Make the session rebuild every entry from the game files (`pbp run` at start)."""
        self.rebuild = True

    def cycle_done(self) -> None:
        """A cycle has looked at every game `games` named: the changes it saw are seen."""
        self.swept = True

    def reminders_seen(self, now: float) -> None:
        """A cycle has queued every reminder due at `now`."""
        self.chore_seen(now, "reminders")

    def chore_seen(self, now: float, chore: str) -> None:
        """A cycle has seen to every moment of `chore` (reminders, tallies) due at `now`."""
        if self.rebuild or not self._something_by(now):
            return
        for row in self.entries.values():
            if UNREADABLE not in row and chore_due(IndexEntry.from_row(row), now, chore):
                row[SEEN[chore]] = now
                self.dirty = True

    # ------------------------------------------------------------------ what a cycle asks
    def games(
        self,
        game_ids: Iterable[str],
        flag: str | None = None,
        due: Callable[[IndexEntry], bool] | None = None,
        now: float = 0.0,
    ) -> list[str]:
        """The games among `game_ids` to look at: every game the index cannot vouch for
        (see the module's docstring), those it marks with `flag`, and, when a moment up to
        `now` is in the index, those whose entry is `due`."""
        game_ids = list(game_ids)
        if self.rebuild:
            return game_ids
        asked = set(game_ids)
        # Set operations, not loops over every game: a cycle asks several times, and most
        # answers of an idle cycle are empty.
        pick = self.opened | self._flagged("doubtful") | (asked - self._known())
        if flag is not None:
            pick |= self._flagged(flag)
        if due is not None and self._something_by(now):
            pick |= {
                game_id
                for game_id, row in self.entries.items()
                if UNREADABLE not in row and due(IndexEntry.from_row(row))
            }
        pick &= asked
        return [game_id for game_id in game_ids if game_id in pick] if pick else []

    def _something_by(self, now: float) -> bool:
        timeline = self.summary.get("timeline", ())
        return bool(timeline) and timeline[0][0] <= now

    def timeline(self) -> Iterator[Moment]:
        """Every game's moments, earliest first (the entries are parsed only if the
        summary's few are not enough)."""
        shown = [tuple(moment) for moment in self.summary.get("timeline", ())]
        yield from shown
        if self.summary.get("more"):
            rest = sorted(m for g, e in self.entries.items() for m in moments_of(g, e))
            yield from rest[len(shown) :]

    def refresh(self, folder: GameFiles) -> None:
        """Bring the entries of the games this session opened (of every game, when
        rebuilding) up to date from their files, in memory."""
        entry_of = self.entry_of
        if entry_of is None:
            self.rebuild = True  # nothing vouched for: every question names every game
            return
        game_ids = folder.game_ids()
        todo = self._to_refresh(game_ids)
        gone = self._known() - set(game_ids)
        if not (todo or gone or self.dirty):
            return
        entries = self.entries
        for game_id in todo:
            entries[game_id] = self._refreshed(folder, game_id, entry_of)
        for game_id in gone:
            entries.pop(game_id, None)
        self.rebuild, self.dirty = False, True
        self._summarise()

    def _to_refresh(self, game_ids: list[str]) -> list[str]:
        """The games whose entries may be stale: every game when rebuilding, else those
        this session opened, those without an entry and those that could not be read."""
        if self.rebuild:
            return game_ids
        known, doubtful = self._known(), self._flagged("doubtful")
        return [
            game_id
            for game_id in game_ids
            if game_id in self.opened
            or game_id not in known
            or game_id in doubtful
            and UNREADABLE in self.entries.get(game_id, {})
        ]

    def _refreshed(self, folder: GameFiles, game_id: str, entry_of: EntryOf) -> Entry:
        """The game's stored entry as its file now gives it, with the index's own keys: its
        stamp, whether it changed since a cycle looked, the chores already seen to."""
        before, current = (self.base or {}).get(game_id), self.entries.get(game_id, {})
        stamp = game_stamp(self.games_folder, game_id)
        if current.get("stamp") == stamp and UNREADABLE not in current:
            entry = dict(current)  # opened, not written: the same file gives the same entry
        else:
            # An unreadable game stays a game to look at; `pbp status` shows it.
            try:
                entry = entry_of(folder.game(game_id)).to_row()
            except Exception as error:
                entry = {UNREADABLE: f"{type(error).__name__}: {error}"}
        entry["stamp"] = stamp
        entry["changed"] = (
            before is None
            or before.get("stamp") != stamp
            or (before.get("changed", True) and not self.swept)
        )
        if all(current.get(key) == entry.get(key) for key in ("phase", "deadline")):
            for seen in SEEN.values():  # the same phase's reminders and counts stay seen
                if seen in current:
                    entry[seen] = current[seen]
        return entry

    def save(self, folder: GameFiles) -> None:
        """Write the refreshed entries, marked clean (when the writer's session ends, or
        before). If this fails, the mark written at the first opening stays and the next
        writer rebuilds."""
        if self.entry_of is None:
            return  # the mark written at the first opening (if any) stays: the next writer rebuilds
        if self.marked or self.rebuild or self.dirty:
            self.refresh(folder)
            self._write_clean()
            self.marked = self.dirty = False
