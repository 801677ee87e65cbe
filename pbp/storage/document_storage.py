"""How the data folder's JSON documents are kept in memory (docs/design.md: Storage):
the registry and each game's document, read through TinyDB.

- A writer (the process holding the data folder's lock) keeps the last version it read or
  wrote (`CachedAtomicStorage`), and hands it to the next writer of this process, the
  next cycle of `pbp run`, when the file has not changed meanwhile (`HandedOverStorage`).
- A reader keeps the version it first read for its whole life and never writes
  (`SnapshotStorage`).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Iterator

from pbp.durable import AtomicJSONStorage
from pbp.errors import UserError

# The documents (the registry, the games') a writer of this process closed, by path:
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
        self._snapshot: dict[str, Any] | None = None
        self._taken = False

    def read(self) -> dict[str, dict[str, Any]] | None:
        if not self._taken:
            self._snapshot = super().read()
            self._taken = True
        return self._snapshot

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        raise read_only(self.path)


def read_only(path: Path) -> UserError:
    """The error for a change asked of a file opened without the writer lock."""
    return UserError(
        f"pbp opened {path} only to read it and cannot change it; "
        "run a command that writes (it takes the data folder's lock)."
    )


def forget_document(path: Path) -> None:
    """Hand over nothing more for `path` (a file about to be written anew)."""
    _documents.pop(path, None)
