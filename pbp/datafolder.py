"""The data folder: one TinyDB file per game plus a small registry (docs/design.md: Storage).

Layout under the data folder:
    pbp.lock              the writer lock (pbp.durable.WriterLock)
    registry.json         games (id, ruleset) and mail that belongs to no game
    games/<id>.json       one game: its record, order log, outbox ledger, handled mail
    mail/                 the embedded Maildir transport (settings.transport = maildir)

A game file's tables:
    game     one document: roster, tokens, schedule, state JSON, open phase and deadline,
             resolved phase ids, result
    orders   the order log: phase, player, canonical text, received, message id, mail key
    outbox   the outbox ledger (pbp.outbox)
    mails    the handled-mail ledger: key, sha256, message id, outcome
    replies  replies per sender per day (the loop and flood cap)
    wrong_tokens  wrong tokens per sender per day (pbp.token_guard)
"""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from tinydb import Query, TinyDB
from tinydb.table import Table

from pbp.errors import UserError
from pbp.durable import PRIVATE_FOLDER, AtomicJSONStorage, WriterLock, private_folder, write_atomically


class CachedAtomicStorage(AtomicJSONStorage):
    """The atomic storage, keeping the last version it read or wrote in memory.

    Safe only in the process holding the data folder's writer lock: nobody else changes
    the file, so the copy in memory is always what is on disk. Writes still reach the
    disk before `write` returns; nothing is held back.
    """

    def __init__(self, path, create_dirs: bool = True):
        super().__init__(path, create_dirs)
        self._cache: dict | None = None

    def read(self):
        if self._pending is not None:
            return self._pending
        if self._cache is None:
            self._cache = super().read()
        return self._cache

    def _write_now(self, data: dict) -> None:
        self._cache = None  # a failed write must not leave a copy the disk does not hold
        super()._write_now(data)
        self._cache = data

    @contextlib.contextmanager
    def transaction(self):
        try:
            with super().transaction():
                yield
        except BaseException:
            self._cache = None  # the discarded transaction may have changed the copy in place
            raise


class SnapshotStorage(AtomicJSONStorage):
    """A reader's view of one file: the whole file as it was at the first read, kept for
    the reader's life, so one command never mixes two versions of a game (writers replace
    files atomically, so the version read is always a whole one). It never writes: a
    process that reads without the writer lock must not change anything."""

    def __init__(self, path, create_dirs: bool = False):
        super().__init__(path, create_dirs=False)
        self._snapshot: dict | None = None
        self._taken = False

    def read(self):
        if not self._taken:
            self._snapshot = super().read()
            self._taken = True
        return self._snapshot

    def write(self, data) -> None:
        raise UserError(f"pbp opened {self.path} only to read it and cannot change it; "
                        "run a command that writes (it takes the data folder's lock).")


class AppendingTable(Table):
    """TinyDB's table with a cheaper `insert`: it adds the new document to the data in
    place, where TinyDB rebuilds the whole table twice per insert, so that each insert
    cost as much as the table was long (the ingest inserts three rows per mail). The data
    passes through the storage's `read` and `write` exactly as before."""

    def insert(self, document: Mapping) -> int:
        if not isinstance(document, Mapping) or isinstance(document, self.document_class):
            return super().insert(document)  # TinyDB's own checks and explicit doc ids
        doc_id = self._get_next_id()
        tables = self._storage.read() or {}
        table = tables.setdefault(self.name, {})
        if str(doc_id) in table:
            raise ValueError(f"Document with ID {doc_id} already exists")
        table[str(doc_id)] = dict(document)
        self._storage.write(tables)
        self.clear_cache()
        return doc_id


class GameDatabase(TinyDB):
    table_class = AppendingTable


class GameFile:
    """One game's TinyDB file."""

    def __init__(self, path: Path, writer: bool):
        self.id = path.stem
        self.path = path
        # (state JSON, state, phase) of the last decode (pbp.game.record): the same JSON
        # object comes back until the state is written again, so it is decoded once.
        self.decoded: tuple[Any, Any, Any] | None = None
        storage = CachedAtomicStorage if writer else SnapshotStorage
        self.db = GameDatabase(path, storage=storage)
        self.game = self.db.table("game", cache_size=0)
        self.orders = self.db.table("orders", cache_size=0)
        self.outbox = self.db.table("outbox", cache_size=0)
        self.mails = self.db.table("mails", cache_size=0)
        self.replies = self.db.table("replies", cache_size=0)
        self.wrong_tokens = self.db.table("wrong_tokens", cache_size=0)

    def record(self) -> dict:
        docs = self.game.all()
        if not docs:
            raise UserError(f"The game file {self.path} is empty; restore it from a backup or remove it.")
        return docs[0]

    def update_record(self, fields: dict) -> None:
        self.game.update(fields, doc_ids=[self.game.all()[0].doc_id])

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        return self.db.storage.transaction()  # type: ignore[no-any-return]


class DataFolder:
    """The data folder, opened either as the one writer (lock held) or read-only.

    A writer waits up to `wait` seconds for the lock (`on_wait` is called once if it has
    to wait): `pbp run` takes the lock for each cycle and releases it between cycles. The
    in-memory copies a writer keeps (`CachedAtomicStorage`) live only as long as this
    object, i.e. only while the lock is held; close it to release the lock."""

    def __init__(self, path: Path, writer: bool = True, wait: float = 0.0,
                 on_wait: Callable[[], None] | None = None):
        self.path = Path(path)
        self.writer = writer
        self.lock = WriterLock(self.path) if writer else None
        if writer:
            private_folder(self.path / "games")
            self.path.chmod(PRIVATE_FOLDER)  # a folder made by an older version, or by hand
            self.lock.acquire(wait, on_wait)
            if not (self.path / "registry.json").exists():
                write_atomically(self.path / "registry.json", b"{}")
        elif not (self.path / "registry.json").exists() and not (self.path / "games").exists():
            raise UserError(f"{self.path} is not a pbp data folder; run `pbp init` or check the settings' data folder.")
        storage = CachedAtomicStorage if writer else SnapshotStorage
        self.registry = TinyDB(self.path / "registry.json", storage=storage)
        self.games_table = self.registry.table("games", cache_size=0)
        self.mails = self.registry.table("mails", cache_size=0)
        self._games: dict[str, GameFile] = {}

    def close(self) -> None:
        for game in self._games.values():
            game.db.close()
        self.registry.close()
        if self.lock:
            self.lock.release()

    def __enter__(self) -> "DataFolder":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------ games
    def game_ids(self) -> list[str]:
        return [doc["id"] for doc in self.games_table.all()]

    def game(self, game_id: str) -> GameFile:
        if game_id not in self._games:
            path = self.path / "games" / f"{game_id}.json"
            if not path.exists() or not self.games_table.contains(Query().id == game_id):
                known = ", ".join(self.game_ids()) or "none yet"
                raise UserError(f"There is no game {game_id!r}; the games are: {known}.")
            self._games[game_id] = GameFile(path, self.writer)
        return self._games[game_id]

    def games(self) -> Iterator[GameFile]:
        for game_id in self.game_ids():
            yield self.game(game_id)

    def add_game(self, game_id: str, ruleset: str, created: str, record: dict,
                 fill: Callable[[GameFile], None] = lambda game: None) -> GameFile:
        """Write the game's file first (its record and whatever `fill` queues in it, such as
        the welcome mails, in one durable write), then register it: a crash in between
        leaves an unregistered file that the next `new-game` with that id overwrites."""
        if self.games_table.contains(Query().id == game_id):
            raise UserError(f"A game called {game_id!r} exists already; choose another --id.")
        path = self.path / "games" / f"{game_id}.json"
        path.unlink(missing_ok=True)
        game = GameFile(path, self.writer)
        with game.transaction():
            game.game.insert(record)
            fill(game)
        self.games_table.insert({"id": game_id, "ruleset": ruleset, "created": created})
        self._games[game_id] = game
        return game

    def next_game_id(self, prefix: str) -> str:
        taken = set(self.game_ids()) | {doc["id"] for doc in self.registry.table("signups", cache_size=0).all()}
        number = 1
        while f"{prefix}{number}" in taken:
            number += 1
        return f"{prefix}{number}"
