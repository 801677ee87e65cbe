"""Durable storage: TinyDB files written atomically, and one writer per data folder
(docs/design.md: Reliability rules, Storage).

Every write replaces the whole file the safe way: write a temp file in the same folder,
fsync it, `os.replace` it over the old one, fsync the folder. A crash leaves either the old
file or the new one, never a torn one. There is no write cache: a write has reached the
disk when `write` returns.

`AtomicJSONStorage.transaction()` groups several TinyDB operations (on several tables) into
one such write, so "the orders, the replies and the mail's identity" commit together or
not at all.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
from pathlib import Path
from typing import IO, Any, BinaryIO, Callable, Iterator, Literal, TextIO, overload

from tinydb import TinyDB
from tinydb.storages import Storage

from pbp.errors import UserError

# The data folder is the host's alone (docs/design.md: Hostile input): tokens, roles, the host
# token and passwords live in it.
PRIVATE_FOLDER = 0o700
PRIVATE_FILE = 0o600
_OPEN_FLAGS = {
    "wb": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
    "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
    "ab": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    "a+": os.O_RDWR | os.O_CREAT | os.O_APPEND,
}


def private_folder(path: Path) -> Path:
    """Make `path` and its missing parents, each readable by its owner alone."""
    path = Path(path)
    for folder in reversed([path, *path.parents]):
        if not folder.exists():
            folder.mkdir(mode=PRIVATE_FOLDER, exist_ok=True)
    return path


@overload
def open_private(path: Path, mode: Literal["wb", "ab"]) -> BinaryIO: ...
@overload
def open_private(path: Path, mode: Literal["w", "a+"]) -> TextIO: ...
def open_private(path: Path, mode: str) -> IO[Any]:
    """`open(path, mode)` for "wb", "w", "ab" or "a+", a new file being created 0600."""
    return os.fdopen(os.open(path, _OPEN_FLAGS[mode], PRIVATE_FILE), mode)


def fsync_folder(folder: Path) -> None:
    """Make a rename inside `folder` durable."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomically(path: Path, data: bytes) -> None:
    """Replace `path` by `data`: temp file, fsync, os.replace, fsync the folder."""
    durable_write(path.with_name(f".{path.name}.tmp"), path, lambda handle: handle.write(data))


def durable_write(temp: Path, final: Path, write: Callable[[BinaryIO], object]) -> None:
    """The crash-safety primitive (docs/design.md: Reliability rules): `write` fills the
    private file `temp`, which is fsynced and renamed to `final`; the folder is fsynced so
    the rename survives a crash. A reader sees the old file or the whole new one."""
    with open_private(temp, "wb") as handle:
        os.fchmod(handle.fileno(), PRIVATE_FILE)  # a leftover temp file may have had other bits
        write(handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temp, final)
    fsync_folder(final.parent)


class AtomicJSONStorage(Storage):
    """A TinyDB storage that writes each version of the file atomically."""

    def __init__(self, path: str | os.PathLike[str], create_dirs: bool = True):
        self.path = Path(path)
        if create_dirs:
            private_folder(self.path.parent)
        self._pending: dict[str, Any] | None = None  # the open transaction's copy of the data
        self._depth = 0
        self._changed = False  # whether the open transaction wrote anything

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._pending is not None:
            return self._pending
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        return json.loads(text) if text.strip() else None

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        if self._depth:
            self._pending = data
            self._changed = True
            return
        self._write_now(data)

    def _write_now(self, data: dict[str, Any]) -> None:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        write_atomically(self.path, text.encode("utf-8"))

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything written inside reaches the disk in one atomic write at the end;
        an exception inside discards all of it."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._pending = self.read() or {}
        self._depth = 1
        self._changed = False
        committed = False
        try:
            yield
            committed = True
        finally:
            self._depth = 0
            pending, self._pending = self._pending, None
            if committed and self._changed:  # a transaction that wrote nothing has nothing to sync
                self._write_now(pending)


def atomic_storage(db: TinyDB) -> AtomicJSONStorage:
    """The storage of a database pbp opened: always an AtomicJSONStorage."""
    storage = db.storage
    if not isinstance(storage, AtomicJSONStorage):
        raise TypeError(f"{db!r} does not write through AtomicJSONStorage")
    return storage


@contextlib.contextmanager
def transaction(db: TinyDB) -> Iterator[TinyDB]:
    with atomic_storage(db).transaction():
        yield db


class WriterLock:
    """One writer process per data folder: an exclusive `flock` on `<data>/pbp.lock`.

    The kernel drops the lock when the process dies, even by SIGKILL, so a crash never
    leaves a stale lock behind.

    `pbp run` holds the lock only while it works (one cycle) and releases it between
    cycles, so a host command that writes takes it with a bounded wait (`acquire(wait=…)`):
    it waits for the running cycle to end instead of failing at once.
    """

    # How often a waiting process tries again: short, so a host command gets the lock
    # within a blink of the daemon's cycle ending.
    RETRY_SECONDS = 0.02

    def __init__(self, folder: Path, name: str = "pbp.lock"):
        self.path = Path(folder) / name
        self._handle: TextIO | None = None

    @property
    def held(self) -> bool:
        return self._handle is not None

    def acquire(self, wait: float = 0.0, on_wait: Callable[[], None] | None = None) -> "WriterLock":
        """Take the lock; if another process holds it, try again for up to `wait` seconds
        (calling `on_wait` once, when the waiting starts), then give up with one line."""
        private_folder(self.path.parent)
        handle = open_private(self.path, "a+")
        give_up = time.monotonic() + wait
        told = False
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= give_up:
                    handle.seek(0)
                    holder = handle.read().strip() or "another process"
                    handle.close()
                    raise self._busy(holder, wait) from None
                if on_wait is not None and not told:
                    on_wait()
                    told = True
                time.sleep(self.RETRY_SECONDS)
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._handle = handle
        return self

    def _busy(self, holder: str, wait: float) -> UserError:
        if wait <= 0:
            return UserError(
                f"The data folder {self.path.parent} is in use by pbp process {holder}; "
                "stop it first (only one pbp may write to a data folder at a time)."
            )
        return UserError(
            f"The data folder {self.path.parent} stayed in use by pbp process {holder} for "
            f"{wait:g} s; try again in a moment, or check that process "
            "(only one pbp may write to a data folder at a time)."
        )

    def release(self) -> None:
        if self._handle is not None:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
            self._handle.close()
            self._handle = None

    def __enter__(self) -> "WriterLock":
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()
