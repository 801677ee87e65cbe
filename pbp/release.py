"""Which release of pbp this is, and which shape of data folder it writes
(docs/design.md: Releases and upgrades).

The release's version lives in one place, `pyproject.toml`; the installed distribution's
metadata carries it here. A data folder is stamped with the data format it holds and the
release that last wrote it, in `FORMAT_FILE` at its top, so that a release can tell a
folder it must upgrade from one written by a newer pbp it must not touch.

The files a release reads at run time besides its code (its templates, and the settings
file `pbp init` copies) are found here alone (docs/design.md: Packaging).
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from pathlib import Path

from pbp.errors import UserError

# The shape of the data folder and of its games' records. Bump it, and add an upgrade step
# (pbp.storage.upgrading.upgrades), whenever a release changes what it writes. A folder without a
# stamp was written before stamps existed: format 1.
DATA_FORMAT = 3
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


# The data package that holds the repository's top-level templates/ folder: setup.py maps
# it there, so an editable install reads the clone's own folder and a wheel its copy.
TEMPLATES_PACKAGE = "pbp.templates"


def templates_folder() -> Path:
    """The folder of pbp's templates (mail, posts, help, the settings example), the same
    way from a clone and from an installed wheel. pbp runs from files on disk (a wheel is
    unpacked when installed), so the package's files are a folder Jinja can read."""
    from importlib import resources  # only the commands that render anything pay for it

    try:
        return Path(str(resources.files(TEMPLATES_PACKAGE)))
    except ModuleNotFoundError:
        # An editable install made before the templates were a package (a clone updated
        # since) knows no such package until it is made again.
        raise UserError(
            "pbp was installed without its templates: install it again (in a clone: "
            "`python3 -m pip install -e .`)."
        ) from None


def settings_example() -> Path:
    """The settings file `pbp init` copies, every setting documented with its default."""
    return templates_folder() / "settings.example.ini"


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
