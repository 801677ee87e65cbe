"""The simulation benchmark (benchmarks/simulate.py) runs end to end at a tiny size and
prints the lines it promises; timing itself is the script's business."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_simulation_benchmark_prints_both_rulesets_and_their_ratio_to_the_target():
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "simulate.py"), "--games", "2", "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert re.search(
        r"^infiltration 16 players, skill [\d.]+: [\d.]+ games/s per core", done.stdout, re.M
    )
    assert re.search(
        r"^werewolf 15 players, skill [\d.]+: [\d.]+ games/s per core", done.stdout, re.M
    )
    assert re.search(
        r"over the target of 50: infiltration [\d.]+, werewolf [\d.]+$", done.stdout, re.M
    )
