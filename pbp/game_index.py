"""The index of deadlines and wake-ups (docs/design.md: Many games): `<data>/game_index.json`,
one small entry per game — its clock, deadline, reminder times, whether its outbox holds
unsent mail and whether it has an approved public post — so that a daemon cycle with
nothing to do reads this one file and opens no game file.

The index is a filter that may say "look at this game" too often but never too seldom:
every question a cycle asks (`games`) returns each game whose entry says it has work now,
plus every game the index cannot vouch for. It cannot vouch for

- any game, while the file says `clean: false`: a writer that opens a game file first
  writes that mark (durably, before the game file can change) and replaces it with the
  refreshed entries when it closes the data folder. A crash in between leaves the mark,
  and the next writer rebuilds every entry from the game files;
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

import json
from pathlib import Path
from typing import Any, Callable, Iterable

from pbp.durable import write_atomically

FILE_NAME = "game_index.json"
FORMAT = 1
Entry = dict[str, Any]


def game_stamp(games: Path, game_id: str) -> list:
    """What changes whenever a game's files are written: the document is replaced whole (a
    new inode), anything kept beside it under the same name only grows."""
    stamp: list = []
    for suffix in (".json", ".journal"):
        try:
            status = (games / f"{game_id}{suffix}").stat()
        except FileNotFoundError:
            stamp.append(None)
            continue
        stamp.append([status.st_ino, status.st_mtime_ns, status.st_size])
    return stamp


def reminder_due(entry: Entry, now: float) -> bool:
    """Whether a reminder time of the entry's phase has passed since a cycle last looked."""
    deadline = entry.get("deadline")
    return deadline is not None and now < deadline and any(
        entry.get("reminded", 0.0) < moment <= now for moment in entry.get("reminders", ()))


class GameIndex:
    """The index as one process sees it during one session with the data folder."""

    def __init__(self, data: Path, writer: bool):
        self.path = Path(data) / FILE_NAME
        self.games_folder = Path(data) / "games"
        self.writer = writer
        stored = self._load()
        self.trusted = bool(stored) and stored.get("format") == FORMAT and stored.get("clean") is True
        self.entries: dict[str, Entry] = dict(stored.get("games", {})) if self.trusted else {}
        self.base = {game_id: dict(entry) for game_id, entry in self.entries.items()}  # as the session found it
        self.opened: set[str] = set()  # games this session's writer opened: their entries may be stale
        self.swept = False  # a cycle looked at every game the index named
        self.marked = False  # this session wrote `clean: false`
        self.rebuild = not self.trusted
        self.dirty = False  # entries changed in memory since they were read

    def _load(self) -> dict:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _write(self, clean: bool) -> None:
        text = json.dumps({"format": FORMAT, "clean": clean, "games": self.entries},
                          sort_keys=True, separators=(",", ":"))
        write_atomically(self.path, text.encode("utf-8"))

    # ------------------------------------------------------------------ what the writer tells it
    def opening(self, game_id: str) -> None:
        """A writer is about to open (and maybe write) a game file: from now until the
        session's end the index on disk vouches for no game."""
        if not self.marked:
            self._write(clean=False)
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
        for entry in self.entries.values():
            if reminder_due(entry, now):
                entry["reminded"] = now
                self.dirty = True

    # ------------------------------------------------------------------ what a cycle asks
    def games(self, game_ids: Iterable[str], wanted: Callable[[Entry], bool] = lambda entry: False) -> list[str]:
        """The games among `game_ids` to look at: those whose entry is `wanted`, and every
        game the index cannot vouch for (see the module's docstring)."""
        if self.rebuild:
            return list(game_ids)
        return [game_id for game_id in game_ids if self._unsure(game_id) or wanted(self.entries[game_id])]

    def _unsure(self, game_id: str) -> bool:
        entry = self.entries.get(game_id)
        return game_id in self.opened or entry is None or entry.get("changed", True) or "unreadable" in entry

    def refresh(self, folder) -> dict[str, Entry]:
        """Bring the entries of the games this session opened (of every game, when
        rebuilding) up to date from their files, in memory; the entries afterwards."""
        from pbp.game.index_entry import entry_of  # it reads game records; the data folder imports this module

        game_ids = folder.game_ids()
        todo = game_ids if self.rebuild else [game_id for game_id in game_ids if game_id in self.opened
                                              or "unreadable" in self.entries.get(game_id, {"unreadable": ""})]
        for game_id in todo:
            before, current = self.base.get(game_id), self.entries.get(game_id, {})
            stamp = game_stamp(self.games_folder, game_id)
            try:
                entry = entry_of(folder.game(game_id))
            except Exception as error:  # an unreadable game stays a game to look at; `pbp status` shows it
                entry = {"unreadable": f"{type(error).__name__}: {error}"}
            entry["stamp"] = stamp
            entry["changed"] = (before is None or before.get("stamp") != stamp
                                or (before.get("changed", True) and not self.swept))
            if (current.get("phase"), current.get("deadline")) == (entry.get("phase"), entry.get("deadline")):
                entry["reminded"] = current.get("reminded", 0.0)  # the same phase's reminders stay seen
            self.entries[game_id] = entry
        for game_id in set(self.entries) - set(game_ids):
            del self.entries[game_id]
        self.rebuild = False
        self.dirty = True
        return self.entries

    def save(self, folder) -> None:
        """Write the refreshed entries, marked clean (when the writer's session ends, or
        before). If this fails, the mark written at the first opening stays and the next
        writer rebuilds."""
        if self.marked or self.rebuild or self.dirty:
            self.refresh(folder)
            self._write(clean=True)
            self.marked = self.dirty = False
