"""The release as a host installs it (docs/design.md: Packaging). `python -m build` makes an
sdist and a wheel that `twine check` accepts; the wheel holds exactly pbp's code and the
files it reads at run time (SHIPPED_FOLDERS), so a template added and not shipped fails
here; installed into a new virtual environment in a temporary folder (no system packages,
no PYTHONPATH, run from outside the checkout), the commands a new host runs first work
there: --version, the demo of every ruleset and with thread votes, init, rules and a small
balance run. Slow (a build, an install with every dependency, three demos): a few minutes."""

from __future__ import annotations

import re

import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import xml.etree.ElementTree as ElementTree
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

import engine
from pbp.release import settings_example

REPO = Path(__file__).resolve().parents[2]
# Every file of these folders of the checkout is in the wheel, at the folder named beside it:
# the code, and templates/ (mail, posts, help, the settings example) inside pbp.
SHIPPED_FOLDERS = {"engine": "engine", "pbp": "pbp", "templates": "pbp/templates"}
# What a checkout holds that is no source: caches and what builds leave behind.
NOT_SOURCE = (
    "__pycache__",
    "*.pyc",
    ".git",
    "*.egg-info",
    ".hypothesis",
    ".pytest_cache",
    ".venv",
    "build",
    "dist",
    "pbp-data",
)
# The environment a host's shell would give: nothing that points Python at the checkout.
NOT_INHERITED = ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PBP_SETTINGS")

pytestmark = pytest.mark.timeout(1800)  # the build and the install come before the first test


def run(command: list[str], cwd: Path, env: dict[str, str]) -> str:
    """`command`'s output; its exit code must be 0."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, (
        f"{' '.join(command)} exited with {done.returncode}:\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def clean_environment(bin_folder: Path | None = None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
    if bin_folder is not None:
        env["PATH"] = f"{bin_folder}{os.pathsep}{env.get('PATH', '')}"
    return env


def release_version() -> str:
    with open(REPO / "pyproject.toml", "rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def shipped_files() -> set[str]:
    """Where the wheel must hold each file of the SHIPPED_FOLDERS of the checkout."""
    found = set()
    for folder, target in SHIPPED_FOLDERS.items():
        for path in (REPO / folder).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.add(f"{target}/{path.relative_to(REPO / folder).as_posix()}")
    return found


@dataclass(frozen=True)
class Release:
    sdist: Path
    wheel: Path


@dataclass(frozen=True)
class Installed:
    """pbp installed from the wheel into its own virtual environment."""

    venv: Path
    home: Path  # a folder outside the checkout, where each command runs in a folder of its own

    def pbp(self, *args: str, folder: str) -> str:
        cwd = self.home / folder
        cwd.mkdir(exist_ok=True)
        return run(
            [str(self.venv / "bin" / "pbp"), *args], cwd, clean_environment(self.venv / "bin")
        )


@pytest.fixture(scope="module")
def release(tmp_path_factory) -> Release:
    """The sdist and the wheel `python -m build` makes (the wheel is built from the sdist),
    built from a copy of the checkout so the build leaves nothing in it."""
    source = tmp_path_factory.mktemp("source") / "pbp"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(*NOT_SOURCE))
    dist = tmp_path_factory.mktemp("dist")
    run(
        [sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
        source,
        clean_environment(),
    )
    (sdist,), (wheel,) = dist.glob("*.tar.gz"), dist.glob("*.whl")
    return Release(sdist, wheel)


@pytest.fixture(scope="module")
def installed(release, tmp_path_factory) -> Installed:
    venv = tmp_path_factory.mktemp("venv")
    env = clean_environment()
    run([sys.executable, "-m", "venv", str(venv)], venv, env)
    # --no-compile: each module is compiled when first imported, not the whole of SciPy now.
    run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "--no-compile",
            "--quiet",
            str(release.wheel),
        ],
        venv,
        env,
    )
    return Installed(venv, tmp_path_factory.mktemp("host"))


def test_twine_accepts_the_sdist_and_the_wheel(release):
    run(
        [
            sys.executable,
            "-m",
            "twine",
            "check",
            "--strict",
            str(release.sdist),
            str(release.wheel),
        ],
        release.wheel.parent,
        clean_environment(),
    )


def test_the_wheel_holds_the_code_and_every_file_pbp_reads_at_run_time(release):
    with zipfile.ZipFile(release.wheel) as wheel:
        held = {name for name in wheel.namelist() if ".dist-info/" not in name}
    expected = shipped_files()
    assert not expected - held, (
        f"in the checkout but not in the wheel (setup.py): {sorted(expected - held)}"
    )
    assert not held - expected, f"in the wheel but not in the checkout: {sorted(held - expected)}"
    assert f"pbp/templates/{settings_example().name}" in held


def test_the_sdist_holds_what_builds_and_tests_the_release(release):
    with tarfile.open(release.sdist) as sdist:
        held = {name.partition("/")[2] for name in sdist.getnames()}
    wanted = {
        "pyproject.toml",
        "setup.py",
        "MANIFEST.in",
        "README.md",
        "CHANGELOG.md",
        "templates/mail/welcome.j2",
        "tests/release/test_package.py",
        "docs/design.md",
        "examples/roles/vampire.py",
    }
    assert not wanted - held, f"not in the sdist (MANIFEST.in): {sorted(wanted - held)}"


def test_the_installed_pbp_runs_from_its_own_environment(installed):
    where = run(
        [
            str(installed.venv / "bin" / "python"),
            "-c",
            "import engine, pbp; print(engine.__file__, pbp.__file__)",
        ],
        installed.home,
        clean_environment(),
    )
    for path in where.split():
        assert Path(path).is_relative_to(installed.venv)


def test_version(installed):
    assert installed.pbp("--version", folder="version") == f"pbp {release_version()}\n"


@pytest.mark.parametrize("ruleset", engine.rulesets())
def test_demo_of_each_ruleset(installed, ruleset):
    said = installed.pbp("demo", "--ruleset", ruleset, folder=f"demo-{ruleset}")
    assert said.startswith(f"Demo: game ")
    assert f" of {ruleset} with " in said.splitlines()[0]
    assert_played_to_its_end(said)


def test_demo_with_votes_in_the_thread(installed):
    said = installed.pbp("demo", "--votes", "thread", folder="demo-thread")
    assert "-- the running count, as posted in the thread --" in said
    assert_played_to_its_end(said)


def assert_played_to_its_end(said: str) -> None:
    """The demo's last words: who won (or a draw), then where to look next."""
    assert re.search(r"\n(.+ wins?!|Nobody wins: a draw\.) ", said), said[-600:]
    assert "\nWhere to look next: " in said and "did not end" not in said


def test_init_writes_the_documented_settings(installed):
    said = installed.pbp("init", folder="init")
    written = (installed.home / "init" / "pbp.ini").read_text(encoding="utf-8").splitlines()
    example = settings_example().read_text(encoding="utf-8").splitlines()
    assert said.startswith("Wrote ")
    assert (installed.home / "init" / "pbp-data").is_dir()
    assert [line for line in written if not line.startswith("data =")] == [
        line for line in example if not line.startswith("data =")
    ]


@pytest.mark.parametrize("ruleset", engine.rulesets())
def test_rules_of_each_ruleset(installed, ruleset):
    said = installed.pbp("rules", ruleset, folder="rules")
    assert f"`pbp new-game --ruleset {ruleset}`" in said.splitlines()[0]
    assert "Options of the ruleset" in said


def test_a_small_balance_run(installed):
    said = installed.pbp(
        "balance",
        engine.DEFAULT_RULESET,
        "--players",
        "8",
        "--games",
        "4",
        "--jobs",
        "1",
        "--plot",
        "plot.svg",
        folder="balance",
    )
    assert "8 players" in said
    assert said.rstrip().endswith("plot: plot.svg")
    assert ElementTree.parse(installed.home / "balance" / "plot.svg").getroot().tag.endswith("svg")
