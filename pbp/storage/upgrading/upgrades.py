"""Upgrading a data folder written by an earlier release, in one crash-safe step
(docs/design.md: Releases and upgrades).

The writer that opens a folder of an older format upgrades it before anything else, under
the folder's lock:

1. it copies the folder as it is (but its lock, its Maildir transport and `upgrades/`)
   into `upgrades/format-<old>.partial`, syncs it, and renames it `upgrades/format-<old>`:
   the copy of what the upgrade replaces, a whole data folder the old release can open;
2. it writes every file the upgrade changes, as the new format has it, into
   `upgrades/format-<new>.partial`, syncs it, and renames it `upgrades/format-<new>.staged`.
   That rename is the commit: before it the folder is the old one (the next writer clears
   the leftovers and starts again), after it the upgrade is decided;
3. it moves each staged file over the folder's own (each an atomic replace), the stamp
   `pbp-format.json` last, then removes the staged folder.

A kill in step 3 leaves the staged folder, the marker: the next writer completes the
step before anything else (copying a staged file again is harmless, nothing was written
in between, since every writer completes it first), and a reader refuses the folder until
then. A folder written by a newer pbp is refused by readers and writers alike, before
anything is written.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path
from typing import Any, Callable, Iterator

from pbp.crashpoints import crash_point
from pbp.durable import fsync_folder, private_folder, write_atomically
from pbp.errors import UserError
from pbp.storage.game_storage import forget_handed_over
from pbp.storage.upgrading.upgrade_messages import messages_into_journal
from pbp.release import DATA_FORMAT, FORMAT_FILE, pbp_version, read_stamp

UPGRADES = "upgrades"
MESSAGES_JOURNALED = 3  # the format from which the channels' messages are in the journal
FIRST_RULES_VERSION = 1  # the rules a game stored before rules versions existed started under
# What the copy of an old folder leaves out: the lock, the embedded Maildir transport (mail
# in transit, not game data) and the copies of earlier upgrades.
NOT_COPIED = ("pbp.lock", "mail", UPGRADES)
log = logging.getLogger("pbp.upgrade")


def refuse_newer(data_dir: Path) -> None:
    """Refuse a folder written by a newer pbp, or one whose upgrade a kill interrupted
    (for a reader; a writer completes it)."""
    stamp = read_stamp(data_dir)
    if stamp.data_format > DATA_FORMAT:
        by = f" (pbp {stamp.written_by})" if stamp.written_by else ""
        raise UserError(
            f"The data folder {data_dir} holds data format {stamp.data_format}{by}, newer than "
            f"format {DATA_FORMAT} that this pbp {pbp_version()} reads; install that release "
            "or a newer one."
        )


def refuse_interrupted(data_dir: Path) -> None:
    if _staged(data_dir) is not None:
        raise UserError(
            f"An upgrade of the data folder {data_dir} was interrupted; run any command that "
            "writes (such as `pbp upgrade`) to complete it, then try again."
        )


def open_for_writing(data_dir: Path) -> None:
    """Called by the writer with the lock held: complete an interrupted upgrade, upgrade an
    older folder, stamp a new one, or restamp one last written by another release."""
    data_dir = Path(data_dir)
    refuse_newer(data_dir)
    _complete(data_dir)
    stamp = read_stamp(data_dir)
    if stamp.data_format < DATA_FORMAT and _holds_data(data_dir):
        upgrade(data_dir, stamp.data_format)
    elif stamp.data_format < DATA_FORMAT or stamp.written_by != pbp_version():
        write_atomically(data_dir / FORMAT_FILE, stamp_bytes())


def stamp_bytes() -> bytes:
    return json.dumps({"data_format": DATA_FORMAT, "written_by": pbp_version()}, indent=1).encode()


def upgrade(data_dir: Path, old: int) -> None:
    """Steps 1 to 3 (the module's docstring) from format `old` to DATA_FORMAT."""
    upgrades = private_folder(data_dir / UPGRADES)
    kept = upgrades / f"format-{old}"
    for leftover in (
        upgrades / f"format-{old}.partial",
        upgrades / f"format-{DATA_FORMAT}.partial",
        kept,
    ):
        shutil.rmtree(leftover, ignore_errors=True)  # of an attempt killed before its commit
    log.warning(
        "Upgrading the data folder %s from data format %d to %d; the old folder is kept in %s.",
        data_dir,
        old,
        DATA_FORMAT,
        kept,
    )
    _copy_durably(data_dir, upgrades / f"format-{old}.partial", kept)
    crash_point("upgrade-after-copy")
    building = upgrades / f"format-{DATA_FORMAT}.partial"
    for number, (relative, data) in enumerate(_upgraded_files(data_dir, old)):
        target = private_folder(building / relative.parent) / relative.name
        write_atomically(target, data)
        if number == 0:
            crash_point("upgrade-mid-build")
    write_atomically(private_folder(building) / FORMAT_FILE, stamp_bytes())
    os.replace(building, upgrades / f"format-{DATA_FORMAT}.staged")
    fsync_folder(upgrades)
    crash_point("upgrade-after-stage")
    _complete(data_dir)


def _staged(data_dir: Path) -> Path | None:
    staged = data_dir / UPGRADES / f"format-{DATA_FORMAT}.staged"
    return staged if staged.is_dir() else None


def _complete(data_dir: Path) -> None:
    """Step 3: move the staged files into place, the stamp last, then drop the marker."""
    staged = _staged(data_dir)
    if staged is None:
        return
    if read_stamp(data_dir).data_format < DATA_FORMAT:  # else the stamp, written last, is in place
        files = sorted(
            (p for p in staged.rglob("*") if p.is_file() and p.name != FORMAT_FILE), key=str
        )
        for number, path in enumerate(files):
            target = data_dir / path.relative_to(staged)
            write_atomically(target, path.read_bytes())
            _forget(target)
            if number == 0:
                crash_point("upgrade-mid-swap")
        write_atomically(data_dir / FORMAT_FILE, (staged / FORMAT_FILE).read_bytes())
        crash_point("upgrade-after-swap")
    shutil.rmtree(staged)
    fsync_folder(staged.parent)


def _holds_data(data_dir: Path) -> bool:
    return (data_dir / "registry.json").exists() or any((data_dir / "games").glob("*.json"))


def _copy_durably(source: Path, partial: Path, final: Path) -> None:
    shutil.copytree(
        source,
        partial,
        ignore=lambda folder, names: (
            [n for n in names if n in NOT_COPIED] if Path(folder) == source else []
        ),
    )
    for folder, _, names in os.walk(partial):
        for name in names:
            with open(Path(folder) / name, "rb") as handle:
                os.fsync(handle.fileno())
        fsync_folder(Path(folder))
    os.replace(partial, final)
    fsync_folder(final.parent)


def _format_1_to_2(record: dict[str, Any], document: dict[str, Any]) -> None:
    """Format 2 adds the stamps of the record, and the rules version the game started under
    (the first: rules versions begin with the release that wrote format 1)."""
    record.setdefault("rules_version", FIRST_RULES_VERSION)


def _format_2_to_3(record: dict[str, Any], document: dict[str, Any]) -> None:
    """Format 3 keeps the host token in the game's record, not in the forum's table
    (pbp.storage.host_token): the token of a game started before goes with it, so the forms
    and approvals the host was mailed still carry the right one."""
    for row in document.get("forum", {}).values():
        token = row.pop("host_token", None)
        if token and not record.get("host_token"):
            record["host_token"] = token


# The upgrade of a game's record (with the document holding it) from each format to the
# next; a release that bumps DATA_FORMAT adds its step here (and its fixture in
# tests/upgrades/folders).
STEPS: dict[int, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    1: _format_1_to_2,
    2: _format_2_to_3,
}


def _upgraded_files(data_dir: Path, old: int) -> Iterator[tuple[Path, bytes]]:
    """Each game's document with its record taken from format `old` to DATA_FORMAT, one
    step after the other, and stamped; and its journal, when the upgrade moves a table
    there."""
    for path in sorted((data_dir / "games").glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8") or "{}")
        for record in document.get("game", {}).values():
            for step in range(old, DATA_FORMAT):
                STEPS[step](record, document)
            record.update({"data_format": DATA_FORMAT, "written_by": pbp_version()})
        journal = messages_into_journal(path, document) if old < MESSAGES_JOURNALED else None
        if journal is not None:  # before the document: `_complete` moves files in name order
            yield path.with_suffix(".journal").relative_to(data_dir), journal
        yield (
            path.relative_to(data_dir),
            json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode(),
        )


def _forget(path: Path) -> None:
    """The in-memory copies this process may keep of a replaced game document."""
    if path.parent.name == "games" and path.suffix == ".json":
        forget_handed_over(path)
