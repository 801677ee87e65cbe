"""One layout and a line limit for all Python (docs/design.md: Rooms and names): the code is
as `ruff format` writes it, and no line of pbp, engine, the benchmarks or the scripts is
longer than pyproject.toml's line-length, so that the 300-line rule of
scripts/check-architecture is not met by width."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The scripts are Python without a .py suffix: ruff is told about each by name.
SCRIPTS = sorted(
    str(path.relative_to(ROOT))
    for path in (ROOT / "scripts").iterdir()
    if path.is_file() and path.read_text(errors="replace").startswith("#!/usr/bin/env python")
)


def ruff(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_python_is_as_the_formatter_writes_it():
    result = ruff("format", "--check", ".", *SCRIPTS)
    assert result.returncode == 0, "run `ruff format .` on:\n" + result.stdout + result.stderr


def test_no_line_of_the_code_is_over_the_limit():
    result = ruff("check", "--output-format", "concise", ".", *SCRIPTS)
    assert result.returncode == 0, "lines over the limit:\n" + result.stdout + result.stderr


def test_a_planted_long_line_is_caught(tmp_path: Path):
    planted = tmp_path / "wide.py"
    planted.write_text("WIDE = " + repr("x" * 120) + "\n")
    result = ruff("check", "--config", str(ROOT / "pyproject.toml"), str(planted))
    assert result.returncode != 0 and "E501" in result.stdout
