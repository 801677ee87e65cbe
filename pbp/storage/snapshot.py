"""A consistent copy of a data folder's files, taken under the writer lock in a blink and
written out after it is released (docs/design.md: Backup, restore and moving a game).

Every file pbp writes is either replaced whole (temp file, fsync, rename: pbp.durable) or
only grows (a game's journal and texts, the spool's claims). So a snapshot needs the lock
only while it opens each file and notes its size: an open file keeps the version it was
opened on after a rename replaces it, and what a later writer appends lies past the noted
size. The archive is written, compressed, after the lock is released, while `pbp run`
carries on; the daemon holds the lock for a whole cycle, so the snapshot is never taken
while mail is being sent.

The archive is a gzip-compressed tar: every system can list and unpack it without pbp,
and `tarfile` reads it with the extraction filters that refuse hostile members.
"""

from __future__ import annotations

import gzip
import io
import os
import queue
import tarfile
import threading
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO, Any, Callable, Iterable, Iterator, cast

from pbp.durable import WriterLock, durable_write
from pbp.errors import UserError

# Files that belong to the running processes, not to the data: the locks and the daemon's
# own account of itself; and the temp files of a write a crash interrupted.
NOT_DATA = frozenset({"pbp.lock", "run.lock", "daemon.json"})
# Where a restore or an import unpacks an archive before moving its files into place.
STAGING_PREFIX = ".staging-"
# A small file is read under the lock; a bigger one is held open and read after it.
READ_AT_ONCE = 64 * 1024
# gzip's own default level, the one `tar czf` uses.
COMPRESS_LEVEL = 6
# What the tar stream hands the compressing thread at a time.
STREAM_CHUNK = 1 << 20


@dataclass
class CapturedFile:
    name: str  # the path inside the folder, with "/" between parts
    size: int
    mtime: float
    content: bytes | None = None  # a small file's bytes
    handle: IO[bytes] | None = None  # a bigger file, open on the version captured

    def reader(self) -> IO[bytes]:
        return self.handle if self.handle is not None else io.BytesIO(self.content or b"")

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()


@dataclass
class Snapshot:
    files: list[CapturedFile]

    def close(self) -> None:
        for captured in self.files:
            captured.close()

    def __enter__(self) -> "Snapshot":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def names(self) -> set[str]:
        return {captured.name for captured in self.files}


def is_data(name: str) -> bool:
    path = PurePosixPath(name)
    return (
        name not in NOT_DATA
        and not path.parts[0].startswith(STAGING_PREFIX)
        and not (path.name.startswith(".") and path.name.endswith(".tmp"))
    )


def folder_files(data: Path) -> Iterator[str]:
    """The regular files under `data` (links are not followed), as relative names."""
    for root, folders, files in os.walk(data):
        folders.sort()
        for file in sorted(files):
            path = Path(root) / file
            if not path.is_symlink() and path.is_file():
                yield path.relative_to(data).as_posix()


def capture(
    data: Path,
    names: Callable[[], Iterable[str]],
    wait: float,
    on_wait: Callable[[], None] | None = None,
) -> Snapshot:
    """Take the folder's writer lock (waiting up to `wait` seconds, as every writing
    command does), capture the files `names()` lists, release the lock."""
    if not (Path(data) / "registry.json").exists():
        raise UserError(
            f"{data} is not a pbp data folder; check --data or the settings' data folder."
        )
    budget = open_files_budget()
    lock = WriterLock(Path(data)).acquire(wait, on_wait)
    snapshot = Snapshot([])
    try:
        for name in names():
            captured = _capture_one(Path(data), name, held=budget > 0)
            budget -= captured is not None and captured.handle is not None
            if captured is not None:
                snapshot.files.append(captured)
    except BaseException:
        snapshot.close()
        raise
    finally:
        lock.release()
    return snapshot


def open_files_budget() -> int:
    """How many files the snapshot may hold open: the process's limit raised to the most
    the system allows, less a margin for everything else."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 1 << 16 if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return (1 << 16 if soft == resource.RLIM_INFINITY else soft) - 64


def _capture_one(data: Path, name: str, held: bool) -> CapturedFile | None:
    """The file as it is now: its bytes when it is small or no more files may be held
    open (beyond that, a big folder is read under the lock), else the open file."""
    try:
        handle = open(data / name, "rb")
    except FileNotFoundError:  # e.g. a mail moved on in the Maildir meanwhile
        return None
    status = os.fstat(handle.fileno())
    captured = CapturedFile(name, status.st_size, status.st_mtime)
    if status.st_size <= READ_AT_ONCE or not held:
        with handle:
            captured.content = handle.read(status.st_size)
    else:
        captured.handle = handle
    return captured


def folder_names(data: Path) -> list[str]:
    """The folders under `data`, so that an empty one (a Maildir's `tmp`) is restored too."""
    return sorted(
        Path(root, folder).relative_to(data).as_posix()
        for root, folders, _files in os.walk(data)
        for folder in folders
        if is_data(Path(root, folder).relative_to(data).as_posix())
    )


def write_archive(
    target: Path, members: Iterable[tuple[str, IO[bytes], int, float]], folders: Iterable[str] = ()
) -> None:
    """Write the tar.gz `target` of the `folders` and the `members` (name, reader, size,
    mtime) durably: a crash leaves no half archive under its name. The tar stream is
    compressed on a second thread (zlib lets go of the interpreter while it works), so
    reading the files and compressing them overlap, as in `tar czf`'s two processes."""

    def fill(handle: IO[bytes]) -> None:
        with CompressingWriter(handle) as compressed:
            # a stream ("w|") only ever writes to its file (the stubs ask for a whole file)
            stream = cast(IO[bytes], compressed)
            with tarfile.open(fileobj=stream, mode="w|", bufsize=STREAM_CHUNK) as tar:
                for name in folders:
                    info = tarfile.TarInfo(name)
                    info.type, info.mode = tarfile.DIRTYPE, 0o700
                    tar.addfile(info)
                for name, reader, size, mtime in members:
                    info = tarfile.TarInfo(name)
                    info.size, info.mtime, info.mode = size, int(mtime), 0o600
                    tar.addfile(info, reader)

    partial = target.with_name(f".{target.name}.partial")
    try:
        durable_write(partial, target, fill)
    finally:
        partial.unlink(missing_ok=True)  # left only by a failure: nothing half-written stays


class CompressingWriter:
    """A file to write to whose bytes are gzip-compressed into `target` on a thread of
    its own; closing it waits for the last chunk and raises what the thread met."""

    def __init__(self, target: IO[bytes]):
        self._chunks: queue.Queue[bytes | None] = queue.Queue(maxsize=8)
        self._gzip = gzip.GzipFile(fileobj=target, mode="wb", compresslevel=COMPRESS_LEVEL)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._compress, name="backup-gzip", daemon=True)
        self._thread.start()

    def write(self, data: Any) -> int:
        if self._error is not None:
            raise self._error
        chunk = bytes(data)
        self._chunks.put(chunk)
        return len(chunk)

    def _compress(self) -> None:
        while (chunk := self._chunks.get()) is not None:
            if self._error is None:
                try:
                    self._gzip.write(chunk)
                except BaseException as error:  # noqa: BLE001 - handed to the writing thread
                    self._error = error

    def close(self) -> None:
        self._chunks.put(None)
        self._thread.join()
        if self._error is not None:
            raise self._error
        self._gzip.close()

    def __enter__(self) -> "CompressingWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def snapshot_members(snapshot: Snapshot) -> Iterator[tuple[str, IO[bytes], int, float]]:
    for captured in snapshot.files:
        yield captured.name, captured.reader(), captured.size, captured.mtime


def check_target(target: Path, data: Path) -> None:
    """An archive goes outside the data folder and never over an existing file."""
    if target.exists():
        raise UserError(f"{target} exists already; choose another file name or remove it first.")
    if not target.parent.is_dir():
        raise UserError(
            f"The folder {target.parent} does not exist; create it or choose another file name."
        )
    if target.resolve().is_relative_to(Path(data).resolve()):
        raise UserError(
            f"{target} is inside the data folder {data}; write the archive somewhere else."
        )
