"""`pbp export` and `pbp import`: one game to an archive and into another data folder
(docs/design.md: Backup, restore and moving a game).

A game owns its files (`games/<id>.json` with its record, drafts, channels and bounces;
`.journal` with its orders, outbox, handled mail and thread posts; `.texts` with its mails'
texts; for a game open for sign-ups the same under `signups/`), the posts the files
publisher wrote for it (`posts/<id>/`), and its rows in the registry (`games` or `signups`,
and a `stalled` note). The export holds exactly these, with a manifest first.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from pathlib import Path
from typing import IO, Any, Callable, Iterator

from pbp.durable import transaction
from pbp.errors import UserError
from pbp.release import pbp_version, read_stamp
from pbp.storage.archive_reading import (
    checked_members,
    member_json,
    move_into,
    open_archive,
    refuse_newer,
    unpack,
)
from pbp.storage.backup import EXPORT_MANIFEST
from pbp.storage.datafolder import DataFolder
from pbp.storage.game_storage import forget_handed_over
from pbp.storage.snapshot import (
    STAGING_PREFIX,
    capture,
    check_target,
    folder_files,
    snapshot_members,
    write_archive,
)

EXPORT_VERSION = 1
GAME_TABLES = {"games": "id", "stalled": "game"}  # registry table -> the field naming the game
SIGNUP_TABLES = {"signups": "id"}
SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


def own_files(game_id: str, folder: str, names: Iterator[str]) -> list[str]:
    """The files of game `game_id` among the data folder's `names`."""
    mine = {f"{folder}/{game_id}{suffix}" for suffix in (".json", ".journal", ".texts")}
    return [name for name in names if name in mine or name.startswith(f"posts/{game_id}/")]


def export_game(
    data: Path, game_id: str, target: Path, wait: float, on_wait: Callable[[], None] | None = None
) -> str:
    """Write game `game_id`'s archive to `target`; says "game" or "signups"."""
    check_target(target, data)

    def names() -> list[str]:
        return [
            "registry.json",
            *own_files(game_id, "games", folder_files(data)),
            *own_files(game_id, "signups", folder_files(data)),
        ]

    with capture(data, names, wait, on_wait) as snapshot:
        files = {captured.name: captured for captured in snapshot.files}
        registry = json.loads(files.pop("registry.json").reader().read() or b"{}")
        kind, rows = _rows_of(registry, game_id)
        if f"{kind}/{game_id}.json" not in files:
            raise UserError(
                f"The file of game {game_id!r} is missing from {data}; restore it from a backup"
                " first."
            )
        stamp = read_stamp(data)
        manifest = json.dumps(
            {
                "pbp_export": EXPORT_VERSION,
                "game": game_id,
                "kind": kind,
                "rows": rows,
                "data_format": stamp.data_format,
                "written_by": pbp_version(),
            }
        ).encode("utf-8")
        head: list[tuple[str, IO[bytes], int, float]] = [
            (EXPORT_MANIFEST, io.BytesIO(manifest), len(manifest), 0)
        ]
        write_archive(
            target, [*head, *(m for m in snapshot_members(snapshot) if m[0] != "registry.json")]
        )
    return kind


def _rows_of(registry: dict[str, Any], game_id: str) -> tuple[str, dict[str, list[Any]]]:
    for kind, tables in (("games", GAME_TABLES), ("signups", SIGNUP_TABLES)):
        rows = {
            table: [row for row in registry.get(table, {}).values() if row.get(field) == game_id]
            for table, field in tables.items()
        }
        if rows[kind]:
            return kind, {table: found for table, found in rows.items() if found}
    known = ", ".join(
        row["id"] for table in ("games", "signups") for row in registry.get(table, {}).values()
    )
    raise UserError(f"There is no game {game_id!r}; the games are: {known or 'none yet'}.")


def import_game(archive: Path, folder: DataFolder) -> str:
    """Load the game in `archive` into `folder` (opened as the writer); its id."""
    with open_archive(archive) as tar:
        files = checked_members(tar, archive)
        if EXPORT_MANIFEST not in files:
            raise UserError(
                f"{archive} is not a game's export (it has no {EXPORT_MANIFEST}); "
                "a whole backup is laid out with `pbp restore`."
            )
        manifest = member_json(tar, files.pop(EXPORT_MANIFEST), archive)
        game_id, kind, rows = _manifest(manifest, files, archive)
        refuse_newer(
            int(manifest.get("data_format", 1)), str(manifest.get("written_by", "")), str(archive)
        )
        here = read_stamp(folder.path).data_format
        if int(manifest.get("data_format", 1)) != here:
            raise UserError(
                f"{archive} holds data format {manifest.get('data_format', 1)} and the data folder "
                f"{folder.path} format {here}; upgrade the older one with the same pbp first."
            )
        _refuse_taken(folder, game_id)
        if kind == "games":
            folder.index.opening(
                game_id
            )  # the index vouches for nothing until it has seen the game
        staging = folder.path / f"{STAGING_PREFIX}import-{game_id}"
        placed: list[Path] = []
        try:
            unpack(tar, list(files.values()), staging)
            placed = move_into(staging, sorted(files), folder.path)
            for path in placed:
                forget_handed_over(path)
            with transaction(folder.registry):  # every row in one registry write
                for table, table_rows in rows.items():
                    folder.registry.table(table, cache_size=0).insert_multiple(table_rows)
        except BaseException:
            for path in placed:  # nothing half-loaded: the files go with the rows not written
                path.unlink(missing_ok=True)
            raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        folder._game_ids = None
    return game_id


def _manifest(
    manifest: Any, files: dict[str, Any], archive: Path
) -> tuple[str, str, dict[str, list[Any]]]:
    """The game's id, kind and registry rows, once the manifest and the members agree that
    they are one game's and nothing else's."""
    damaged = UserError(
        f"{archive} is not a game's export pbp wrote (its manifest does not match its files); "
        "export the game again."
    )
    if not isinstance(manifest, dict) or manifest.get("pbp_export") != EXPORT_VERSION:
        raise damaged
    game_id, kind, rows = manifest.get("game"), manifest.get("kind"), manifest.get("rows")
    tables = GAME_TABLES if kind == "games" else SIGNUP_TABLES if kind == "signups" else None
    if (
        not isinstance(game_id, str)
        or not SAFE_ID.fullmatch(game_id)
        or tables is None
        or not isinstance(rows, dict)
    ):
        raise damaged
    assert isinstance(kind, str)  # one of the two (tables)
    for table, table_rows in rows.items():
        if (
            table not in tables
            or not isinstance(table_rows, list)
            or not all(
                isinstance(row, dict) and row.get(tables[table]) == game_id for row in table_rows
            )
        ):
            raise damaged
    if not rows.get(kind) or f"{kind}/{game_id}.json" not in files:
        raise damaged
    if own_files(game_id, kind, iter(files)) != list(files):
        raise damaged
    return game_id, kind, rows


def _refuse_taken(folder: DataFolder, game_id: str) -> None:
    taken = {
        str(row.get("id")).lower()
        for table in ("games", "signups")
        for row in folder.registry.table(table, cache_size=0).all()
    }
    if game_id.lower() in taken:
        raise UserError(
            f"A game called {game_id!r} exists already in {folder.path}; remove it there first, "
            "or import into another data folder."
        )
