"""The data folder: one game document and one journal per game, plus a small registry
(docs/design.md: Storage).

Layout under the data folder:
    pbp.lock              the writer lock (pbp.durable.WriterLock)
    registry.json         games (id, ruleset) and mail that belongs to no game
    games/<id>.json       one game's document (a TinyDB file, rewritten whole by each commit)
    games/<id>.journal    what only grows: its outbox, order log and handled mail (pbp.storage.journal)
    games/<id>.texts      the texts of its outbox's mails, which the journal's rows point to
    mail/                 the embedded Maildir transport (settings.transport = maildir)

A game's tables, in its document:
    game     one document: roster, tokens, schedule, state JSON, open phase and deadline,
             resolved phase ids, result
and in its journal (so that an ordinary mail's commit only appends):
    orders   the order log: phase, player, canonical text, received, message id, mail key
    outbox   the outbox ledger (pbp.storage.outbox)
    mails    the handled-mail ledger: key, sha256, message id, outcome
    replies  replies per sender per day (the loop and flood cap)
    wrong_tokens  wrong tokens per sender per day (pbp.game.token_guard)

A game file written before the journal existed holds every table in its document: a
reader reads them from there, and the first write moves them into the journal.
"""
from __future__ import annotations

import contextlib
import os
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from tinydb import Query, TinyDB
from tinydb.table import Table

from pbp.errors import UserError
from pbp.durable import PRIVATE_FOLDER, AtomicJSONStorage, WriterLock, private_folder, write_atomically
from pbp.storage.game_index import GameIndex
from pbp.storage.journal import (JOURNALED, Appender, JournalTable, Op, Replayed, Rows, apply, cut, encode, identity, replay,
                         store_texts, whole_row)

# The document's own version, which the journal's lines name (pbp.storage.journal).
VERSION_KEY = "_journal"
# The journals a writer of this process closed, by path: the next writer (the next cycle of
# `pbp run`) reads only the lines appended since, however long the game. Each is taken by
# one storage at a time and given back when it closes, as it was last committed.
_replayed: dict[Path, Replayed] = {}
# Likewise the game documents (and the registry) a writer of this process closed, by path:
# (the file's stamp, the document as read or last written, its version). The next writer
# uses it if the file still has that stamp (every write replaces the file, so another
# process's write changes it), instead of reading and decoding a document that grows with
# the game's posts.
_documents: dict[Path, tuple[tuple[int, int, int, int], dict[str, Any], int]] = {}


def _stamp(path: Path) -> tuple[int, int, int, int] | None:
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    return status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns


class CachedAtomicStorage(AtomicJSONStorage):
    """The atomic storage, keeping the last version it read or wrote in memory.

    Safe only in the process holding the data folder's writer lock: nobody else changes
    the file, so the copy in memory is always what is on disk. Writes still reach the
    disk before `write` returns; nothing is held back.
    """

    def __init__(self, path: str | os.PathLike[str], create_dirs: bool = True):
        super().__init__(path, create_dirs)
        self._cache: dict[str, Any] | None = None

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._pending is not None:
            return self._pending
        if self._cache is None:
            self._cache = super().read()
        return self._cache

    def _write_now(self, data: dict[str, Any]) -> None:
        self._cache = None  # a failed write must not leave a copy the disk does not hold
        super()._write_now(data)
        self._cache = data

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        try:
            with super().transaction():
                yield
        except BaseException:
            self._cache = None  # the discarded transaction may have changed the copy in place
            raise


class HandedOverStorage(CachedAtomicStorage):
    """A document as a writer keeps it (the registry, a game's), handed to the next writer
    of this process (the next cycle of `pbp run`) when the file still has the stamp it had
    at the close (`_documents`): an idle cycle then parses no registry, however many games
    it lists, and a game's next cycle no document that grows with its posts."""

    def __init__(self, path: str | os.PathLike[str], create_dirs: bool = True):
        super().__init__(path, create_dirs)
        known = _documents.pop(self.path, None)
        self._handed_version: int | None = None  # the version handed over with the document
        if known is not None and known[0] == _stamp(self.path):
            _stamp_, self._cache, self._handed_version = known

    def _version_to_hand_over(self) -> int | None:
        """The version the document is handed over with; None: hand nothing over."""
        return 0

    def close(self) -> None:
        try:
            stamp = _stamp(self.path)
            if self._cache is not None and not self._depth and stamp is not None:
                version = self._version_to_hand_over()
                if version is not None:
                    _documents[self.path] = (stamp, self._cache, version)
        finally:
            super().close()


class SnapshotStorage(AtomicJSONStorage):
    """A reader's view of one file: the whole file as it was at the first read, kept for
    the reader's life, so one command never mixes two versions of a game (writers replace
    files atomically, so the version read is always a whole one). It never writes: a
    process that reads without the writer lock must not change anything."""

    def __init__(self, path: str | os.PathLike[str], create_dirs: bool = False):
        super().__init__(path, create_dirs=False)
        self._snapshot: dict[str, dict[str, Any]] | None = None
        self._taken = False

    def read(self) -> dict[str, dict[str, Any]] | None:
        if not self._taken:
            self._snapshot = super().read()
            self._taken = True
        return self._snapshot

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        raise UserError(f"pbp opened {self.path} only to read it and cannot change it; "
                        "run a command that writes (it takes the data folder's lock).")


class JournaledGame(AtomicJSONStorage):
    """A game document's storage together with its journal (pbp.storage.journal): the document's
    tables go through TinyDB as before, the journaled tables through `rows` and `change`.
    Mixed into the writer's and the reader's storage, before their own class, so that its
    `super()` is theirs."""

    writer = False
    # Where the sync of a commit that only appends to the journal runs, when it may finish
    # after the commit returns (GameFile.syncing_in); None: every commit syncs before it returns.
    syncer: Executor | None = None

    def _open_journal(self) -> None:
        self.journal_path = self.path.with_suffix(".journal")
        self.texts_path = self.path.with_suffix(".texts")
        self.version = 0
        self._rows: Rows | None = None
        # journaled tables found inside a document of the old format
        self._legacy: dict[str, dict[int, dict[str, Any]]] = {}
        self._ops: list[Op] = []  # the open transaction's changes to journaled tables
        self._length = 0  # the journal's valid bytes, as the rows hold them
        self._unsynced: Future[None] | None = None  # the sync of the last line, still running on `syncer`
        self._texts: int | None = None  # the texts file's descriptor, for reading (see `whole`)
        self._appender = Appender(self.journal_path)

    def read(self) -> dict[str, dict[str, Any]] | None:
        data = super().read()
        if data:
            meta = data.pop(VERSION_KEY, None)
            if meta is not None:
                self.version = meta["version"]
            for name in JOURNALED:
                table = data.pop(name, None)
                if table is not None:
                    self._legacy[name] = {int(doc_id): row for doc_id, row in table.items()}
        return data

    def rows(self) -> Rows:
        """The journaled tables, replayed once; the writer first cuts off a commit a crash
        interrupted, and moves the tables of an old document into the journal."""
        if self._rows is None:
            self.read()  # the document first: its version says which lines count
            known = _replayed.pop(self.journal_path, None) if self.writer else None
            now = identity(self.journal_path)
            if known is not None and now is not None and known.identity == now[:2] and now[2] >= known.length:
                rows, valid = replay(self.journal_path, self.version, known.length, known.rows)
            else:
                rows, valid = replay(self.journal_path, self.version)
            for name, table in self._legacy.items():
                for doc_id, row in table.items():
                    apply(rows, ["i", name, doc_id, row])
            if self.writer:
                cut(self.journal_path, valid)
            self._rows, self._length = rows, valid
            if self.writer and self._legacy:
                self._migrate()
        return self._rows

    def _migrate(self) -> None:
        """One commit: the old document's journaled tables go into the journal, and the
        document is written again without them (a crash in between leaves the old file,
        which the next write migrates again)."""
        disk = AtomicJSONStorage.read(self) or {}
        for key in (VERSION_KEY, *JOURNALED):
            disk.pop(key, None)
        version = self.version + 1
        self._ops = [["i", name, doc_id, dict(row)] for name, table in self._legacy.items()
                     for doc_id, row in table.items()]
        self._append(version)
        AtomicJSONStorage._write_now(self, {**disk, VERSION_KEY: {"version": version}})
        self.version = version
        self._legacy = {}

    def change(self, op: Op) -> None:
        """Apply one insert or update; it reaches the disk with the transaction's commit,
        or at once outside a transaction."""
        if not self.writer:
            raise UserError(f"pbp opened {self.path} only to read it and cannot change it; "
                            "run a command that writes (it takes the data folder's lock).")
        apply(self.rows(), op)
        if self._depth:
            self._ops.append(op)
            return
        self._ops = [op]
        self._append(self.version)

    def whole(self, row: dict[str, Any]) -> dict[str, Any]:
        """A journaled row with its text fields (pbp.storage.journal.whole_row)."""
        return whole_row(self._texts_descriptor, row)

    def _texts_descriptor(self) -> int:
        """The texts file, opened for reading once for the storage's life (the outbox reads
        one text per mail it sends); only appended to, so what it read stays valid."""
        if self._texts is None:
            self._texts = os.open(self.texts_path, os.O_RDONLY)
        return self._texts

    def close_texts(self) -> None:
        if self._texts is not None:
            os.close(self._texts)
            self._texts = None

    def _append(self, version: int, later: bool = False) -> None:
        """Write the open transaction's line; with `later` (a commit that writes no document),
        its sync may run on `syncer` (see `settle`)."""
        self.settle()
        ops, self._ops = self._ops, []
        try:
            store_texts(self.texts_path, ops)
            line = encode(version, ops)
            self._unsynced = self._appender.append(line, self.syncer if later else None)
            self._length += len(line)
        except BaseException:
            self._rows = None  # read again from the disk: the change never happened
            raise

    def settle(self) -> None:
        """Wait until the last commit's line is on disk; if its sync failed, raise that
        error, the tables being read again from the disk."""
        pending, self._unsynced = self._unsynced, None
        if pending is not None:
            try:
                pending.result()
            except BaseException:
                self._rows = None
                self._appender.close()  # after a failed sync, a fresh descriptor for the next line
                raise

    def _write_now(self, data: dict[str, Any]) -> None:
        self.rows()  # a crash's leftover is cut, an old document migrated, before anything else
        version = self.version + 1
        try:
            if self._ops:
                self._append(version)
            super()._write_now({**data, VERSION_KEY: {"version": version}})
        except BaseException:
            self._rows = None
            raise
        self.version = version

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        if self._depth:
            with super().transaction():
                yield
            return
        self._ops = []
        try:
            with super().transaction():
                yield
                if self._ops and not self._changed:  # only journaled tables changed
                    self._append(self.version, later=True)
        except BaseException:
            self._ops = []
            self._rows = None  # the discarded changes are in memory: read again from the disk
            raise


class GameWriterStorage(JournaledGame, HandedOverStorage):
    writer = True

    def __init__(self, path: str | os.PathLike[str], create_dirs: bool = True):
        super().__init__(path, create_dirs)
        self._open_journal()
        if self._handed_version is not None:
            self.version = self._handed_version

    def _version_to_hand_over(self) -> int | None:
        self.read()  # the version and any old-format tables taken out, as a reader leaves them
        return None if self._legacy else self.version

    def close(self) -> None:
        """Hand the replayed journal and the document on to the next writer of this process
        (see `_replayed` and `_documents`)."""
        try:
            self.settle()  # a failed sync forgets the rows: nothing unsynced is handed on
            now = identity(self.journal_path)
            if self._rows is not None and not self._depth and now is not None and now[2] == self._length:
                _replayed[self.journal_path] = Replayed(now[:2], self._length, self._rows)
        finally:
            self._rows = None
            self.close_texts()
            self._appender.close()
            super().close()


class GameReaderStorage(JournaledGame, SnapshotStorage):
    def __init__(self, path: str | os.PathLike[str], create_dirs: bool = False):
        super().__init__(path, create_dirs)
        self._open_journal()

    def close(self) -> None:
        self.close_texts()
        super().close()


def game_tables(path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """A game's tables as plain data, its document's and its journal's, read without the
    lock (for tools and tests that look at the files)."""
    storage = GameReaderStorage(path)
    try:
        tables = dict(storage.read() or {})
        for name, table in storage.rows().items():
            tables[name] = {str(doc_id): storage.whole(row) for doc_id, row in table.items()}
    finally:
        storage.close()
    return tables


class AppendingTable(Table):
    """TinyDB's table with a cheaper `insert`: it adds the new document to the data in
    place, where TinyDB rebuilds the whole table twice per insert, so that each insert
    cost as much as the table was long (the ingest inserts three rows per mail). The data
    passes through the storage's `read` and `write` exactly as before."""

    def insert(self, document: Mapping[str, Any]) -> int:
        if not isinstance(document, Mapping) or isinstance(document, self.document_class):
            return super().insert(document)  # TinyDB's own checks and explicit doc ids
        doc_id: int = self._get_next_id()  # type: ignore[no-untyped-call]  # TinyDB's own, unannotated
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
        # (state JSON, state, phase) of the last decode (pbp.game.stored): the same JSON
        # object comes back until the state is written again, so it is decoded once.
        self.decoded: tuple[Any, Any, Any] | None = None
        # The last StoredGame pbp.game.stored.load made of this file, handed out again
        # while the record is unchanged.
        self.loaded: Any = None
        self.db = GameDatabase(path, storage=GameWriterStorage if writer else GameReaderStorage)
        storage = self.journaled()
        self.game = self.db.table("game", cache_size=0)
        self.orders = JournalTable("orders", storage.rows, storage.change, storage.whole)
        self.outbox = JournalTable("outbox", storage.rows, storage.change, storage.whole)
        self.mails = JournalTable("mails", storage.rows, storage.change, storage.whole)
        self.replies = JournalTable("replies", storage.rows, storage.change, storage.whole)
        self.wrong_tokens = JournalTable("wrong_tokens", storage.rows, storage.change, storage.whole)

    def record(self) -> dict[str, Any]:
        docs = self.game.all()
        if not docs:
            raise UserError(f"The game file {self.path} is empty; restore it from a backup or remove it.")
        return docs[0]

    def update_record(self, fields: dict[str, Any]) -> None:
        self.game.update(fields, doc_ids=[self.game.all()[0].doc_id])

    def journaled(self) -> JournaledGame:
        """The game's storage: its document and its journal."""
        storage = self.db.storage
        assert isinstance(storage, JournaledGame)  # __init__ opens the database on one
        return storage

    def transaction(self) -> contextlib.AbstractContextManager[None]:
        return self.journaled().transaction()

    @contextlib.contextmanager
    def syncing_in(self, syncer: Executor) -> Iterator[Callable[[], None]]:
        """Within it, a commit that only appends to the journal returns once its line is
        written, its sync running on `syncer`; the function it gives waits until that line
        is on disk (and every commit waits for the one before it). Whoever acts on such a
        commit outside the file (the outbox, before it sends the next mail) waits first.
        At the end, the last line is waited for."""
        storage = self.journaled()
        storage.syncer = syncer
        try:
            yield storage.settle
        finally:
            storage.syncer = None
            storage.settle()


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
        if self.lock is not None:  # the writer
            private_folder(self.path / "games")
            self.path.chmod(PRIVATE_FOLDER)  # a folder made by an older version, or by hand
            self.lock.acquire(wait, on_wait)
            if not (self.path / "registry.json").exists():
                write_atomically(self.path / "registry.json", b"{}")
        elif not (self.path / "registry.json").exists() and not (self.path / "games").exists():
            raise UserError(f"{self.path} is not a pbp data folder; run `pbp init` or check the settings' data folder.")
        storage = HandedOverStorage if writer else SnapshotStorage
        self.registry = TinyDB(self.path / "registry.json", storage=storage)
        self.games_table = self.registry.table("games", cache_size=0)
        self.mails = self.registry.table("mails", cache_size=0)
        self._games: dict[str, GameFile] = {}
        self._game_ids: list[str] | None = None
        self.index = GameIndex(self.path, writer)  # deadlines and wake-ups (pbp.storage.game_index)

    def close(self) -> None:
        try:
            if self.writer:
                self.index.save(self)
        finally:
            for game in self._games.values():
                game.db.close()
            self.registry.close()
            if self.lock:
                self.lock.release()

    def __enter__(self) -> "DataFolder":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ games
    def game_ids(self) -> list[str]:
        # Asked several times per cycle; only `add_game` changes the list while the folder is open.
        if self._game_ids is None:
            self._game_ids = [row["id"] for row in (self.registry.storage.read() or {}).get("games", {}).values()]
        return list(self._game_ids)

    def game(self, game_id: str) -> GameFile:
        if game_id not in self._games:
            path = self.path / "games" / f"{game_id}.json"
            if not path.exists() or not self.games_table.contains(Query().id == game_id):
                known = ", ".join(self.game_ids()) or "none yet"
                raise UserError(f"There is no game {game_id!r}; the games are: {known}.")
            if self.writer:
                self.index.opening(game_id)
            self._games[game_id] = GameFile(path, self.writer)
        return self._games[game_id]

    def games(self) -> Iterator[GameFile]:
        for game_id in self.game_ids():
            yield self.game(game_id)

    def add_game(self, game_id: str, ruleset: str, created: str, record: dict[str, Any],
                 fill: Callable[[GameFile], None] = lambda game: None) -> GameFile:
        """Write the game's file first (its record and whatever `fill` queues in it, such as
        the welcome mails, in one durable write), then register it: a crash in between
        leaves an unregistered file that the next `new-game` with that id overwrites."""
        if self.games_table.contains(Query().id == game_id):
            raise UserError(f"A game called {game_id!r} exists already; choose another --id.")
        path = self.path / "games" / f"{game_id}.json"
        self.index.opening(game_id)
        path.unlink(missing_ok=True)
        for leftover in (".journal", ".texts"):  # of an unregistered game a crash left behind
            path.with_suffix(leftover).unlink(missing_ok=True)
        _replayed.pop(path.with_suffix(".journal"), None)
        _documents.pop(path, None)
        game = GameFile(path, self.writer)
        with game.transaction():
            game.game.insert(record)
            fill(game)
        self.games_table.insert({"id": game_id, "ruleset": ruleset, "created": created})
        self._game_ids = None
        self._games[game_id] = game
        return game

    def next_game_id(self, prefix: str) -> str:
        taken = set(self.game_ids()) | {doc["id"] for doc in self.registry.table("signups", cache_size=0).all()}
        number = 1
        while f"{prefix}{number}" in taken:
            number += 1
        return f"{prefix}{number}"
