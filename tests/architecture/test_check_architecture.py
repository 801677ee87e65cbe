"""`scripts/check-architecture` fails on each kind of planted violation and passes a tree
that keeps the rules (docs/design.md: The one rule of the architecture)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "check-architecture"

CLEAN_TREE = {
    "pbp/__init__.py": "",
    "pbp/cli.py": "import engine\nfrom pbp import status\n",
    "pbp/status.py": "from engine.core import Ruleset\n",
    "engine/__init__.py": "from engine.toy import rules\n",
    "engine/core.py": "class Ruleset: ...\n",
    "engine/toy/__init__.py": "",
    "engine/toy/rules.py": "from engine.core import Ruleset\n",
}


def check(tmp_path: Path, changes: dict[str, str]) -> subprocess.CompletedProcess:
    for relative, text in {**CLEAN_TREE, **changes}.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return subprocess.run([sys.executable, str(SCRIPT), "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)


def test_a_tree_that_keeps_the_rules_passes(tmp_path):
    done = check(tmp_path, {})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no import cycle" in done.stdout and "no module over 300 lines" in done.stdout


def test_an_import_cycle_in_the_shell_fails_even_through_a_function_level_import(tmp_path):
    done = check(tmp_path, {"pbp/status.py": "def late():\n    from pbp import cli\n"})
    assert done.returncode == 1
    assert "import cycle in pbp: pbp.cli <-> pbp.status" in done.stdout


def test_the_shell_importing_a_ruleset_module_fails(tmp_path):
    done = check(tmp_path, {"pbp/status.py": "from engine.toy.rules import Ruleset\n"})
    assert done.returncode == 1
    assert "the shell reaches past the registry: pbp.status imports engine.toy.rules" in done.stdout


def test_the_contract_importing_a_ruleset_fails(tmp_path):
    done = check(tmp_path, {"engine/core.py": "import engine.toy.rules\nclass Ruleset: ...\n"})
    assert done.returncode == 1
    assert "the contract imports a ruleset: engine.core imports engine.toy.rules" in done.stdout


def test_the_engine_importing_the_shell_fails(tmp_path):
    done = check(tmp_path, {"engine/toy/rules.py": "import pbp.status\n"})
    assert done.returncode == 1
    assert "the engine imports the shell: engine.toy.rules imports pbp.status" in done.stdout


def test_a_module_over_300_lines_fails_and_is_named_with_its_length(tmp_path):
    """Every module of `pbp`, however deep, at most 300 lines; exactly 300 is allowed."""
    done = check(tmp_path, {"pbp/status.py": "x = 1\n" * 300,
                            "pbp/deep/__init__.py": "",
                            "pbp/deep/long.py": "x = 1\n" * 301})
    assert done.returncode == 1
    assert "module longer than 300 lines: pbp/deep/long.py (301)" in done.stdout
    assert "pbp/status.py" not in done.stdout
