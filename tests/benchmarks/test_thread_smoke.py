"""The thread benchmark (benchmarks/thread.py) runs end to end at a tiny size. Timing is
the script's business, not the test suite's: this only checks that it completes and
prints the ratio it promises."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_thread_benchmark_runs_and_reports_the_throughput_ratio():
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "thread.py"), "--posts", "150", "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode in (0, 1), (
        done.stdout + done.stderr
    )  # 1 only means the target was missed
    assert "Traceback" not in done.stderr, done.stderr
    assert re.search(
        r"^round 1: pbp \d+ ms \(50 votes stored\), bare fetch-and-parse \d+ ms \(151 posts\)",
        done.stdout,
        re.M,
    ), done.stdout
    assert re.search(
        r"^ratio of pbp's throughput to the bare fetch-and-parse [\d.]+ \(need >= 0\.8\): (OK|TOO SLOW)$",
        done.stdout,
        re.M,
    ), done.stdout
