"""The desk's benchmark (benchmarks/web.py) runs end to end at a tiny size. Timing is the
script's business, not the test suite's: this only checks that it completes and prints
both ratios last."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(300)
REPO = Path(__file__).resolve().parents[2]


def test_the_web_benchmark_runs_and_prints_both_ratios_last():
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "web.py"),
            "--players",
            "6",
            "--late-phase",
            "3",
            "--games",
            "15",
            "--rounds",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=REPO,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 1 only means a target was missed
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stdout.strip().splitlines()[-2:]
    assert re.fullmatch(
        r"ratio game page / pbp status at phase 3 [\d.]+ \(need <= 1.5\): (OK|TOO SLOW)", last[0]
    ), last
    assert re.fullmatch(
        r"ratio games page 15 games / 10 games [\d.]+ \(need <= 2.0\): (OK|TOO SLOW)", last[1]
    ), last
