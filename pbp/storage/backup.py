"""`pbp backup` and `pbp restore`: a whole data folder to one archive and back
(docs/design.md: Backup, restore and moving a game)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Callable

from pbp.durable import WriterLock, open_private, private_folder
from pbp.errors import UserError
from pbp.release import FORMAT_FILE, read_stamp
from pbp.storage.archive_reading import (
    archive_format,
    checked_members,
    move_into,
    open_archive,
    refuse_newer,
    unpack,
)
from pbp.storage.game_index import UNCLEAN_MARK
from pbp.storage.snapshot import (
    STAGING_PREFIX,
    capture,
    check_target,
    folder_files,
    folder_names,
    is_data,
    snapshot_members,
    write_archive,
)

EXPORT_MANIFEST = "pbp-export.json"  # the first member of a game's export (pbp.storage.game_move)
STAGING = STAGING_PREFIX + "restore"


def backup(data: Path, target: Path, wait: float, on_wait: Callable[[], None] | None = None) -> int:
    """Write the snapshot of `data` to `target`; the number of files it holds."""
    check_target(target, data)
    with capture(
        data, lambda: [name for name in folder_files(data) if is_data(name)], wait, on_wait
    ) as snapshot:
        write_archive(target, snapshot_members(snapshot), folder_names(data))
        return len(snapshot.files)


def restore(archive: Path, data: Path) -> int:
    """Lay the backup `archive` out as the data folder `data`, which must hold no game and
    be used by no pbp; the number of files restored."""
    with open_archive(archive) as tar:
        files = checked_members(tar, archive)
        if EXPORT_MANIFEST in files:
            raise UserError(
                f"{archive} is one game's export, not a backup; load it with `pbp import`."
            )
        if "registry.json" not in files:
            raise UserError(
                f"{archive} is not a pbp backup (it has no registry.json); check the file's name."
            )
        archive_format(tar, files, archive)
        _refuse_newer_folder(data)
        private_folder(data)
        with _locks(data):
            _refuse_live(data)
            staging = data / STAGING
            try:
                unpack(tar, list(files.values()), staging)
                # A writer rebuilds the index of deadlines from the restored game files.
                open_private(data / UNCLEAN_MARK, "wb").close()
                if FORMAT_FILE not in files:  # the snapshot predates stamps: so does its data
                    (data / FORMAT_FILE).unlink(missing_ok=True)
                for member in tar.getmembers():  # checked by checked_members: inside the folder
                    if member.isdir():
                        private_folder(data / member.name)
                move_into(staging, sorted(files, key=lambda name: name == "registry.json"), data)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        return len(files)


class _locks:
    """Both locks of the target folder, so that neither `pbp run` nor a host command
    starts on it while the snapshot is laid out."""

    def __init__(self, data: Path):
        self.folder, self.daemon = WriterLock(data), WriterLock(data, name="run.lock")

    def __enter__(self) -> None:
        try:
            self.daemon.acquire()
        except UserError:
            raise UserError(
                f"pbp run is running on {self.daemon.path.parent}; stop it before restoring "
                "into that folder, or restore into a new one."
            ) from None
        try:
            self.folder.acquire()
        except BaseException:
            self.daemon.release()
            raise

    def __exit__(self, *exc: object) -> None:
        self.folder.release()
        self.daemon.release()


def _refuse_newer_folder(data: Path) -> None:
    stamp = read_stamp(data)
    refuse_newer(stamp.data_format, stamp.written_by, f"The data folder {data}")


def _refuse_live(data: Path) -> None:
    _refuse_newer_folder(data)  # again, under the locks
    games = _registered(data)
    if games or any((data / "games").glob("*.json")) or any((data / "signups").glob("*.json")):
        named = ", ".join(games) or "game files"
        raise UserError(
            f"The data folder {data} holds games ({named}); restore into a new or empty folder, "
            "never over a live one."
        )


def _registered(data: Path) -> list[str]:
    try:
        registry = json.loads((data / "registry.json").read_text(encoding="utf-8") or "{}")
    except FileNotFoundError:
        return []
    except ValueError:
        raise UserError(
            f"{data / 'registry.json'} is damaged; restore into a new folder instead."
        ) from None
    return [
        str(row.get("id"))
        for table in ("games", "signups")
        for row in registry.get(table, {}).values()
    ]
