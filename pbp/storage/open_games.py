"""Where open games live (docs/design.md: Sign-ups and spectators): one file per game open
for sign-ups, `signups/<id>.json` in the data folder, with the same tables as a game file
(its record, its outbox, its handled mail, its replies per sender per day), so that
sign-up mail is queued, capped and sent exactly like a game's. The registry's `signups`
table lists them.

An open game's record:
    id, ruleset, players_min, players_max, closes (UTC text), seed, options, schedule,
    status      `open`, then `started` once the game is dealt
    entries     confirmed sign-ups in order: name, email, joined; the first players_max
                play, the rest are the substitutes' list
    pending     one-time codes waiting for a reply: code → action, email, name, created
    host_told   the closing time passed with too few sign-ups and the host was told
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from tinydb import Query

from pbp.storage.datafolder import DataFolder, GameFile
from pbp.durable import private_folder
from pbp.errors import UserError
from pbp.storage.signup_record import SignupEntry, SignupRecord

OPEN, STARTED = "open", "started"
FOLDER = "signups"
OUTBOX_PREFIX = "signups/"  # how the outbox tells an open game's file from a game's


class OpenGame:
    """One open game's file and record."""

    def __init__(self, file: GameFile):
        self.file = file

    @property
    def id(self) -> str:
        return self.file.id

    @property
    def record(self) -> SignupRecord:
        return SignupRecord.from_json(self.file.record())

    def save(self, record: SignupRecord) -> None:
        """Write the keys `record` changes against the file as it stands now (so a key
        written meanwhile by another, the outbox's Message-ID key, stays); inside the
        file's transaction when other writes go with it."""
        with self.file.transaction():
            before, after = self.file.record(), record.to_json()
            changed = {key: value for key, value in after.items() if before.get(key) != value}
            if changed:
                self.file.update_record(changed)

    @property
    def seats(self) -> int:
        """How many sign-ups play: `players_max` until the start, then how many were dealt in."""
        return self.record.seats

    @property
    def players(self) -> tuple[SignupEntry, ...]:
        """The sign-ups who play: the first `players_max`, or once the game started, those
        dealt in (a JOIN after the start only joins the substitutes' list)."""
        record = self.record
        return record.entries[: record.seats]

    @property
    def substitutes(self) -> tuple[SignupEntry, ...]:
        """The sign-ups beyond those who play, in order: the substitutes' list."""
        record = self.record
        return record.entries[record.seats :]


def _files(folder: DataFolder) -> dict[str, GameFile]:
    """One GameFile per open game per data folder object: a writer's files cache what they
    hold, so two objects for one path would disagree."""
    files: dict[str, GameFile] = folder.__dict__.setdefault("_signup_files", {})
    return files


def open_game_ids(folder: DataFolder) -> list[str]:
    return [doc["id"] for doc in folder.registry.table(FOLDER, cache_size=0).all()]


def open_game(folder: DataFolder, game_id: str) -> OpenGame:
    files = _files(folder)
    if game_id not in files:
        path = folder.path / FOLDER / f"{game_id}.json"
        if game_id not in open_game_ids(folder) or not path.exists():
            known = ", ".join(open_game_ids(folder)) or "none"
            raise UserError(
                f"There is no game {game_id!r} open for sign-ups; the open games are: {known}."
            )
        files[game_id] = GameFile(path, folder.writer)
    return OpenGame(files[game_id])


def find_open_game(folder: DataFolder, game_id: str) -> OpenGame | None:
    """The open game called `game_id` (any case of its id), or None."""
    for known in open_game_ids(folder):
        if known.lower() == game_id.lower():
            return open_game(folder, known)
    return None


def open_games(folder: DataFolder) -> Iterator[OpenGame]:
    for game_id in open_game_ids(folder):
        yield open_game(folder, game_id)


def outbox_files(folder: DataFolder) -> Iterator[tuple[str, GameFile]]:
    """(outbox key, file) of every open game's file, for the outbox's sending."""
    for game in open_games(folder):
        yield OUTBOX_PREFIX + game.id, game.file


def add_open_game(folder: DataFolder, record: SignupRecord) -> OpenGame:
    """Write the open game's file, then list it in the registry (a crash in between leaves
    an unlisted file that the next `open-game` with that id overwrites)."""
    game_id = record.id
    if game_id in open_game_ids(folder) or folder.games_table.contains(Query().id == game_id):
        raise UserError(f"A game called {game_id!r} exists already; choose another id.")
    private_folder(folder.path / FOLDER)
    path: Path = folder.path / FOLDER / f"{game_id}.json"
    path.unlink(missing_ok=True)
    path.with_suffix(".journal").unlink(
        missing_ok=True
    )  # a game file's journal of what only grows, if any
    file = GameFile(path, folder.writer)
    with file.transaction():
        file.game.insert({**record.to_json(), "outbox_sequence": 0})
    folder.registry.table(FOLDER, cache_size=0).insert({"id": game_id, "ruleset": record.ruleset})
    _files(folder)[game_id] = file
    return OpenGame(file)
