"""A game file's storage (docs/design.md: Storage): its document, read and written whole
through TinyDB, together with its journal (pbp.storage.journal), where the tables that only
grow are appended to; one storage for the writer, one for a reader.

A game file written before the journal existed holds every table in its document: a
reader reads them from there, and the first write moves them into the journal.
"""

from __future__ import annotations

import contextlib
import os
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, Iterator, Mapping

from tinydb import TinyDB
from tinydb.table import Table

from pbp.durable import AtomicJSONStorage
from pbp.storage.document_storage import (
    HandedOverStorage,
    SnapshotStorage,
    forget_document,
    read_only,
)
from pbp.storage.journal import (
    JOURNALED,
    Appender,
    Op,
    Replayed,
    Rows,
    apply,
    cut,
    encode,
    identity,
    replay,
    store_texts,
    whole_row,
)

# The document's own version, which the journal's lines name (pbp.storage.journal).
VERSION_KEY = "_journal"
# The journals a writer of this process closed, by path: the next writer (the next cycle of
# `pbp run`) reads only the lines appended since, however long the game. Each is taken by
# one storage at a time and given back when it closes, as it was last committed.
_replayed: dict[Path, Replayed] = {}


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
        self._legacy: dict[
            str, dict[int, dict[str, Any]]
        ] = {}  # journaled tables found inside a document of the old format
        self._ops: list[Op] = []  # the open transaction's changes to journaled tables
        self._length = 0  # the journal's valid bytes, as the rows hold them
        self._unsynced: Future[None] | None = (
            None  # the sync of the last line, still running on `syncer`
        )
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
            if (
                known is not None
                and now is not None
                and known.identity == now[:2]
                and now[2] >= known.length
            ):
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
        self._ops = [
            ["i", name, doc_id, dict(row)]
            for name, table in self._legacy.items()
            for doc_id, row in table.items()
        ]
        self._append(version)
        AtomicJSONStorage._write_now(self, {**disk, VERSION_KEY: {"version": version}})
        self.version = version
        self._legacy = {}

    def change(self, op: Op) -> None:
        """Apply one insert or update; it reaches the disk with the transaction's commit,
        or at once outside a transaction."""
        if not self.writer:
            raise read_only(self.path)
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
        (see `_replayed`, and pbp.storage.document_storage)."""
        try:
            self.settle()  # a failed sync forgets the rows: nothing unsynced is handed on
            now = identity(self.journal_path)
            if (
                self._rows is not None
                and not self._depth
                and now is not None
                and now[2] == self._length
            ):
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


def forget_handed_over(path: Path) -> None:
    """Hand nothing over to the next writer for the game file `path` (one written anew)."""
    _replayed.pop(path.with_suffix(".journal"), None)
    forget_document(path)
