"""The upgrade of a data folder is one crash-safe step (docs/design.md: Releases and
upgrades): `pbp upgrade`, a real process, is killed at each of the upgrade's crash points;
what it leaves is the old folder, which the next command upgrades, or the new one (a kill
after the commit leaves the staged folder as the marker: readers refuse the folder with
one sentence, and the next writer completes the step). A folder written by a newer pbp is
refused by every command and nothing is written; a reader never upgrades.

The killed upgrade runs in a forked child of the test (the command's own `main`), which
dies by SIGKILL at the named point exactly as a separate `pbp upgrade` would."""

from __future__ import annotations

import hashlib
import json
import os
import signal
from pathlib import Path

import pytest

from pbp.cli import main
from pbp.release import DATA_FORMAT, FORMAT_FILE, pbp_version, read_stamp
from pbp.storage.upgrading.upgrades import NOT_COPIED
from tests.upgrades.site import RELEASES, unpack

CRASH_POINTS = (
    "upgrade-after-copy",
    "upgrade-mid-build",
    "upgrade-after-stage",
    "upgrade-mid-swap",
    "upgrade-after-swap",
)
BEFORE_COMMIT = CRASH_POINTS[:2]


def pbp(settings: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`pbp <args> --settings <settings>`, in this process: its status, stdout and stderr."""
    capsys.readouterr()
    code = main([*args, "--settings", str(settings)])
    out, err = capsys.readouterr()
    return code, out, err


def killed_upgrade(settings: Path, point: str) -> int:
    """`pbp upgrade` in a forked child with PBP_CRASH_AT=`point`; the signal that ended it."""
    child = os.fork()
    if child == 0:
        os.environ["PBP_CRASH_AT"] = point
        try:
            main(["upgrade", "--settings", str(settings)])
        finally:
            os._exit(0)
    _, status = os.waitpid(child, 0)
    return os.WTERMSIG(status) if os.WIFSIGNALED(status) else 0


def tree(data: Path) -> dict[str, str]:
    """Every file of the data folder but the copies of upgrades and the lock, by digest."""
    return {
        str(path.relative_to(data)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(data.rglob("*"))
        if path.is_file() and path.relative_to(data).parts[0] not in NOT_COPIED
    }


def upgraded(data: Path) -> bool:
    records = [json.loads(p.read_text())["game"]["1"] for p in (data / "games").glob("*.json")]
    return read_stamp(data).data_format == DATA_FORMAT and all(
        r["data_format"] == DATA_FORMAT for r in records
    )


@pytest.mark.parametrize("release", RELEASES)
@pytest.mark.parametrize("point", CRASH_POINTS)
def test_a_kill_at_any_point_of_the_upgrade_leaves_the_old_folder_or_the_new_one(
    tmp_path, capsys, release, point
):
    settings = unpack(release, tmp_path)
    data = tmp_path / "data"
    old = tree(data)
    assert killed_upgrade(settings, point) == signal.SIGKILL
    if point in BEFORE_COMMIT:
        assert tree(data) == old  # the old folder, untouched
        assert pbp(settings, capsys, "status")[0] == 0
    else:
        code, _, err = pbp(settings, capsys, "status")
        assert code == 2 and err.startswith(
            f"pbp: An upgrade of the data folder {data} was interrupted"
        )
        assert err.count("\n") == 1
    code, out, err = pbp(settings, capsys, "upgrade")
    assert code == 0, err
    assert upgraded(data)
    assert tree(data / "upgrades" / "format-1") == old  # the copy of what it replaced
    assert sorted(p.name for p in (data / "upgrades").iterdir()) == ["format-1"]
    code, out, _ = pbp(settings, capsys, "status")
    assert (
        code == 0
        and f"Data folder: data format {DATA_FORMAT}, last written by pbp {pbp_version()}." in out
    )
    assert "nothing to upgrade" in pbp(settings, capsys, "upgrade")[1]


@pytest.mark.parametrize("release", RELEASES)
def test_a_reader_never_upgrades(tmp_path, capsys, release):
    settings = unpack(release, tmp_path)
    data = tmp_path / "data"
    old = tree(data)
    code, out, err = pbp(settings, capsys, "status")
    assert code == 0, err
    assert "Data folder: data format 1, written by an earlier pbp" in out
    assert tree(data) == old and not (data / "upgrades").exists()


@pytest.mark.parametrize("release", RELEASES)
def test_a_folder_written_by_a_newer_pbp_is_refused_and_nothing_written(tmp_path, capsys, release):
    settings = unpack(release, tmp_path)
    data = tmp_path / "data"
    (data / FORMAT_FILE).write_text(
        json.dumps({"data_format": DATA_FORMAT + 1, "written_by": "99.0"})
    )
    old = tree(data)
    for command in (["status"], ["upgrade"], ["poll"], ["advance", "ww1"], ["replay", "ww1"]):
        code, _, err = pbp(settings, capsys, *command)
        assert code == 2, (command, err)
        assert err == (
            f"pbp: The data folder {data} holds data format {DATA_FORMAT + 1} (pbp 99.0), newer than "
            f"format {DATA_FORMAT} that this pbp {pbp_version()} reads; install that release or a newer "
            "one.\n"
        )
        assert tree(data) == old and not (data / "pbp.lock").exists()
