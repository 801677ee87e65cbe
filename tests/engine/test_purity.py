"""The engine is pure (docs/design.md: The one rule of the architecture): no clock, no
files, no network, no process state, and every chance draw from a seeded generator. Checked
on the source, so a new module cannot slip an impure call in unseen."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"

# Modules that reach the world outside the arguments: time, files, the network, processes.
IMPURE_MODULES = {
    "time",
    "datetime",
    "os",
    "sys",
    "pathlib",
    "io",
    "shutil",
    "socket",
    "subprocess",
    "threading",
    "multiprocessing",
    "asyncio",
    "urllib",
    "http",
    "smtplib",
    "imaplib",
    "tempfile",
    "glob",
    "sqlite3",
    "secrets",
    "uuid",
    "signal",
    "logging",
}
# Calls that read or write the world although no module of the list above is imported.
IMPURE_CALLS = {"open", "input", "print", "exec", "eval", "breakpoint"}


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def impurities(path: Path) -> list[str]:
    found = []
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            names = []
        found += [f"imports {name}" for name in names if name.split(".")[0] in IMPURE_MODULES]
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in IMPURE_CALLS
        ):
            found.append(f"calls {node.func.id}()")
        # `random.choice(…)` draws from the process-wide generator, which no seed replays;
        # `random.Random(seed)` (and the engine's phase_rng) make seeded ones.
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "random"
            and node.func.attr != "Random"
        ):
            found.append(f"draws from the unseeded random.{node.func.attr}()")
    return found


def test_no_engine_module_reaches_the_clock_files_network_or_an_unseeded_draw():
    problems = [
        f"{path.relative_to(ENGINE.parent)}: {problem}"
        for path in engine_modules()
        for problem in impurities(path)
    ]
    assert problems == []


def test_the_purity_check_finds_a_planted_clock_and_an_unseeded_draw(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        "import time\nimport random\n\ndef roll():\n    time.time()\n"
        "    return random.choice([1, 2])\n\ndef fair(seed):\n"
        "    return random.Random(seed).choice([1, 2])\n"
    )
    assert impurities(planted) == ["imports time", "draws from the unseeded random.choice()"]
