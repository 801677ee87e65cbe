"""The engine benchmark (benchmarks/engine.py) runs end to end at a tiny size and prints the
lines it promises; timing itself is the script's business, not the test suite's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_engine_benchmark_reports_both_sizes_and_their_ratio():
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "engine.py"), "--games", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert re.search(r"^12 players:\s+[\d.]+ ms per turn", done.stdout, re.M), done.stdout
    assert re.search(r"^48 players:\s+[\d.]+ ms per turn", done.stdout, re.M), done.stdout
    match = re.search(r"^ratio 48/12: ([\d.]+) \(must be <= 5\)$", done.stdout, re.M)
    assert match, done.stdout
    assert done.returncode == (0 if float(match.group(1)) <= 5 else 1)
