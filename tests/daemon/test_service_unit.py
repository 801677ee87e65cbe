"""`pbp service` prints a systemd unit for `pbp run` (pbp.daemon.service_unit; docs/design.md:
Running pbp as a service) that `systemd-analyze verify` accepts: restarted on failure, run
as the data folder's owner, allowed to write only to the data folder. The tool comes with
Debian's `systemd` package (scripts/test installs it); `--man=no` keeps it from looking up
the man pages a container lacks, and it needs no running systemd to verify a unit file."""

from __future__ import annotations

import contextlib
import io
import pwd
import shutil
import subprocess
from pathlib import Path

import pytest

from pbp.cli import main
from tests.fixtures.harness import write_settings

pytestmark = pytest.mark.timeout(120)


def service(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["service", *args])
    return code, out.getvalue(), err.getvalue()


def verify(unit: str, folder: Path) -> subprocess.CompletedProcess:
    tool = shutil.which("systemd-analyze")
    assert tool, "systemd-analyze is missing: install Debian's systemd package (scripts/test does)"
    path = folder / "pbp.service"
    path.write_text(unit, encoding="utf-8")
    return subprocess.run(
        [tool, "verify", "--man=no", str(path)], capture_output=True, text=True, timeout=60
    )


def site(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "data").mkdir()
    return write_settings(root / "pbp.ini", {"pbp": {"data": "data"}})


@pytest.mark.parametrize("folder", ["plain", "with space and 100%"])
def test_the_printed_unit_passes_systemd_analyze_verify(tmp_path, folder):
    settings = site(tmp_path / folder)
    code, unit, err = service("--settings", str(settings))
    assert code == 0 and not err
    checked = verify(unit, tmp_path)
    assert checked.returncode == 0 and not checked.stderr.strip() and not checked.stdout.strip(), (
        checked
    )


def test_the_unit_restarts_on_failure_as_the_data_folders_owner_and_writes_only_there(tmp_path):
    settings = site(tmp_path / "host")
    code, unit, _ = service("--settings", str(settings))
    lines = set(unit.splitlines())
    owner = pwd.getpwuid((tmp_path / "host" / "data").stat().st_uid).pw_name
    data = (tmp_path / "host" / "data").resolve()
    assert code == 0
    assert {
        "Restart=on-failure",
        f"User={owner}",
        "NoNewPrivileges=yes",
        "ProtectSystem=strict",
        "PrivateTmp=yes",
        f"ReadWritePaths={data}",
        "KillSignal=SIGTERM",
    } <= lines
    exec_start = next(line for line in lines if line.startswith("ExecStart="))
    program = exec_start.removeprefix("ExecStart=").split()[0]
    assert Path(program).is_absolute() and exec_start.endswith(
        f"run --settings {settings.resolve()}"
    )


def test_an_unknown_user_is_refused_in_one_sentence(tmp_path):
    settings = site(tmp_path / "host")
    code, unit, err = service("--settings", str(settings), "--user", "no-such-user-here")
    assert code == 2 and not unit
    assert err.count("\n") == 1 and "no-such-user-here" in err and "--user" in err
