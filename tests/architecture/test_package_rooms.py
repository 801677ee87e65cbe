"""`scripts/check-architecture` keeps every package a room a newcomer takes in at a glance,
and every module of the shell findable by its file name alone (docs/design.md: The one rule
of the architecture): planted violations fail, the allowances pass."""

from __future__ import annotations

import importlib.util
from importlib.machinery import SourceFileLoader
from pathlib import Path

from .test_check_architecture import SCRIPT, check

ROOT = Path(__file__).resolve().parents[2]


def many_modules(folder: str, count: int) -> dict[str, str]:
    return {f"{folder}/part_{number:02}.py": "" for number in range(count)}


def test_a_package_with_twenty_modules_passes(tmp_path):
    done = check(tmp_path, many_modules("pbp/forum", 19))  # with post.py, twenty
    assert done.returncode == 0, done.stdout + done.stderr
    assert "at most 20 in any other package" in done.stdout


def test_more_than_twenty_modules_in_any_package_of_the_shell_or_engine_fails(tmp_path):
    done = check(
        tmp_path,
        {
            "pbp/forum/thread/__init__.py": "",
            **many_modules("pbp/forum/thread", 21),
            **many_modules("engine/toy", 21),
        },
    )
    assert done.returncode == 1
    assert "21 modules directly in pbp/forum/thread/ (at most 20)" in done.stdout
    assert "22 modules directly in engine/toy/ (at most 20)" in done.stdout  # with rules.py


def test_an_allowed_crowded_package_passes(tmp_path):
    done = check(
        tmp_path,
        {
            "pbp/commands/__init__.py": "import engine\nfrom pbp.forum import post\n",
            **many_modules("pbp/commands", 30),
        },
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_allowance_for_a_crowded_package_is_still_needed():
    loader = SourceFileLoader("check_architecture", str(SCRIPT))
    rules = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(rules)
    for folder, why in rules.CROWDED_PACKAGES.items():
        modules = [path for path in (ROOT / folder).glob("*.py") if path.name != "__init__.py"]
        assert len(modules) > rules.MAX_PACKAGE_MODULES, f"{folder} is within the limit: remove it"
        assert why.strip(), f"{folder} is allowed without a reason"


def test_two_modules_of_the_shell_with_one_file_name_fail(tmp_path):
    done = check(tmp_path, {"pbp/host/post.py": "from pbp.game import status\n"})
    assert done.returncode == 1
    assert "modules share the name post.py: pbp/forum/post.py and pbp/host/post.py" in done.stdout


def test_a_front_end_module_named_by_its_command_and_package_inits_may_share_a_name(tmp_path):
    done = check(
        tmp_path,
        {
            "pbp/commands/status.py": "from pbp.game import status\n",
            "pbp/web/__init__.py": "",
            "pbp/web/status.py": "",
        },
    )
    assert "share the name" not in done.stdout
