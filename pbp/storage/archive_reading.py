"""Reading a backup or a game's export safely (docs/design.md: Backup, restore and moving a
game): every member is checked before anything is written, so a hostile archive is refused
whole; what is unpacked goes to a staging folder first, then into place."""

from __future__ import annotations

import json
import os
import shutil
import tarfile
from pathlib import Path, PurePosixPath
from typing import Any

from pbp.durable import fsync_folder, private_folder
from pbp.errors import UserError
from pbp.release import DATA_FORMAT, FORMAT_FILE, UNSTAMPED_FORMAT

# The most an archive may unpack to: a data folder is far smaller, a zip bomb far bigger.
MAX_UNPACKED_BYTES = 64 * 1024**3


def open_archive(path: Path) -> tarfile.TarFile:
    if not Path(path).is_file():
        raise UserError(f"There is no file {path}; check the archive's name.")
    try:
        return tarfile.open(path, mode="r:gz")
    except (tarfile.TarError, OSError, EOFError) as error:
        raise UserError(
            f"{path} is not an archive pbp wrote ({error}); check the file's name."
        ) from None


def checked_members(tar: tarfile.TarFile, path: Path) -> dict[str, tarfile.TarInfo]:
    """The archive's regular files by name, once every member is known to stay inside the
    folder it is unpacked into: no absolute path, no "..", no link, device or other special
    file, no name twice. Anything else refuses the whole archive."""
    files: dict[str, tarfile.TarInfo] = {}
    total = 0
    try:
        members = tar.getmembers()
    except (tarfile.TarError, OSError, EOFError) as error:
        raise UserError(f"{path} is damaged ({error}); use another copy.") from None
    for member in members:
        name = PurePosixPath(member.name)
        if member.isdir() and not name.is_absolute() and ".." not in name.parts:
            continue
        if name.is_absolute() or ".." in name.parts or not name.parts or not member.isfile():
            raise UserError(
                f"{path} is refused: its member {member.name!r} would be written outside the "
                "data folder or is not a plain file; pbp never writes such archives."
            )
        key = name.as_posix()
        if key in files:
            raise UserError(
                f"{path} is refused: it holds {key!r} twice; pbp never writes such archives."
            )
        files[key] = member
        total += member.size
    if total > MAX_UNPACKED_BYTES:
        raise UserError(
            f"{path} is refused: it would unpack to {total} bytes; pbp never writes such archives."
        )
    return files


def member_json(tar: tarfile.TarFile, member: tarfile.TarInfo, path: Path) -> Any:
    handle = tar.extractfile(member)
    assert handle is not None  # a regular file (checked_members)
    try:
        return json.loads(handle.read().decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise UserError(
            f"{path} is damaged: {member.name} is not JSON; use another copy."
        ) from None


def archive_format(tar: tarfile.TarFile, files: dict[str, tarfile.TarInfo], path: Path) -> int:
    """The data format of the folder the archive was taken from; one newer than this pbp
    reads is refused."""
    if FORMAT_FILE not in files:
        return UNSTAMPED_FORMAT
    stamp = member_json(tar, files[FORMAT_FILE], path)
    data_format = (
        int(stamp.get("data_format", UNSTAMPED_FORMAT))
        if isinstance(stamp, dict)
        else UNSTAMPED_FORMAT
    )
    refuse_newer(
        data_format, stamp.get("written_by", "") if isinstance(stamp, dict) else "", str(path)
    )
    return data_format


def refuse_newer(data_format: int, written_by: str, what: str) -> None:
    if data_format > DATA_FORMAT:
        by = f" (pbp {written_by})" if written_by else ""
        raise UserError(
            f"{what} holds data format {data_format}{by}, newer than the format {DATA_FORMAT} this"
            " pbp reads; install the newer pbp to use it."
        )


def unpack(tar: tarfile.TarFile, members: list[tarfile.TarInfo], staging: Path) -> None:
    """Unpack the checked `members` into the empty folder `staging` (the "data" filter
    refusing, again, whatever would leave it)."""
    shutil.rmtree(staging, ignore_errors=True)
    private_folder(staging)
    tar.extractall(staging, members=members, filter="data")


def move_into(staging: Path, names: list[str], data: Path) -> list[Path]:
    """Move each unpacked file to its place in `data` (one rename each, the folders
    fsynced), replacing what is there; the places written, in order."""
    placed: list[Path] = []
    folders: set[Path] = set()
    for name in names:
        final = data / name
        private_folder(final.parent)
        os.chmod(staging / name, 0o600)
        os.replace(staging / name, final)
        placed.append(final)
        folders.add(final.parent)
    for folder in folders:
        fsync_folder(folder)
    return placed
