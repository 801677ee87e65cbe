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
    assert "at most 15 modules in pbp/" in done.stdout and "touched only by its keepers" in done.stdout


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
    """Every module of `pbp` and `engine`, however deep, at most 300 lines; exactly 300 is
    allowed."""
    done = check(tmp_path, {"pbp/status.py": "x = 1\n" * 300,
                            "pbp/deep/__init__.py": "",
                            "pbp/deep/long.py": "x = 1\n" * 301,
                            "engine/toy/rules.py": "from engine.core import Ruleset\n" + "x = 1\n" * 300})
    assert done.returncode == 1
    assert "module longer than 300 lines: pbp/deep/long.py (301)" in done.stdout
    assert "module longer than 300 lines: engine/toy/rules.py (301)" in done.stdout
    assert "pbp/status.py" not in done.stdout


def test_more_than_15_modules_directly_in_the_shell_fails(tmp_path):
    """Fifteen modules at pbp's top level pass (the clean tree's three and twelve more);
    a sixteenth fails, and the message lists them; modules in folders do not count."""
    fifteen = {f"pbp/room{number}.py": "" for number in range(12)}
    folders = {"pbp/deep/__init__.py": "", **{f"pbp/deep/m{number}.py": "" for number in range(20)}}
    assert check(tmp_path, {**fifteen, **folders}).returncode == 0
    done = check(tmp_path, {**fifteen, **folders, "pbp/one_more.py": ""})
    assert done.returncode == 1
    assert "16 modules directly in pbp/ (at most 15): __init__.py cli.py one_more.py" in done.stdout


def test_reaching_a_game_records_json_outside_its_keepers_fails(tmp_path):
    """Reading the raw document (`file.record()`), writing it (`update_record(`) or reading
    the record by key (`game.record["…"]`, `game.record.get(`) is refused outside the
    storage, pbp/game/stored.py, pbp/game/record.py and the sign-ups; a ledger's
    `record(file, mail)` (it has arguments) and a plain dict's keys are not game records."""
    reaching = ("def f(game, file):\n"
                "    a = file.record()\n"
                "    update_record(file, a)\n"
                "    game.file.update_record({})\n"
                "    b = game.record[\"roster\"]\n"
                "    return game.record.get(\"npcs\")\n")
    innocent = ("def g(ledger, file, mail, row):\n"
                "    ledger.record(file, mail)\n"
                "    return row[\"id\"], row.get(\"status\"), row.record\n")
    keepers = {path: reaching for path in ("pbp/storage/__init__.py", "pbp/game/stored.py",
                                           "pbp/game/record.py", "pbp/signups/__init__.py")}
    done = check(tmp_path, {"pbp/status.py": "from engine.core import Ruleset\n" + reaching + innocent,
                            "pbp/game/__init__.py": "", **keepers})
    assert done.returncode == 1, done.stdout
    problems = [line for line in done.stdout.splitlines() if line.startswith("only the record's keepers")]
    assert problems == [
        "only the record's keepers touch its JSON: pbp/status.py:3 reads a game file's raw record (.record())",
        "only the record's keepers touch its JSON: pbp/status.py:4 writes a game's raw record (update_record)",
        "only the record's keepers touch its JSON: pbp/status.py:5 writes a game's raw record (update_record)",
        "only the record's keepers touch its JSON: pbp/status.py:6 reads a game record by key (.record[...])",
        "only the record's keepers touch its JSON: pbp/status.py:7 reads a game record by key (.record.get)",
    ]
