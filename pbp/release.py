"""Which release of pbp this is, and which shape of data folder it writes
(docs/design.md: Releases and upgrades).

The release's version lives in one place, `pyproject.toml`; the installed distribution's
metadata carries it here. A data folder is stamped with the data format it holds and the
release that last wrote it, in `FORMAT_FILE` at its top, so that a release can tell a
folder it must upgrade from one written by a newer pbp it must not touch.
"""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

# The shape of the data folder and of its games' records. Bump it, and add an upgrade step
# (pbp.storage.upgrades), whenever a release changes what it writes. A folder without a
# stamp was written before stamps existed: format 1.
DATA_FORMAT = 2
UNSTAMPED_FORMAT = 1
FORMAT_FILE = "pbp-format.json"


@functools.cache  # asked by every write of a game's record
def pbp_version() -> str:
    """The installed distribution's version (from pyproject.toml), or "unknown" when pbp
    runs from a checkout that was never installed."""
    from importlib import metadata  # a few milliseconds: only the commands that ask pay them

    try:
        return metadata.version("pbp")
    except metadata.PackageNotFoundError:
        return "unknown"


@dataclass(frozen=True)
class FolderStamp:
    """What a data folder says of itself: the data format it holds and the pbp release
    that last wrote it ("" when it was written before stamps existed)."""

    data_format: int
    written_by: str


def read_stamp(data_dir: Path) -> FolderStamp:
    """The stamp of the data folder `data_dir`; an unstamped folder is format 1."""
    path = Path(data_dir) / FORMAT_FILE
    try:
        stamp = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return FolderStamp(UNSTAMPED_FORMAT, "")
    return FolderStamp(int(stamp["data_format"]), str(stamp.get("written_by", "")))
