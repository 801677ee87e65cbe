"""The backup benchmark (benchmarks/backup.py) runs end to end at a tiny size. Timing is the
script's business, not the test suite's: this only checks that it completes and prints
both times and the ratio last."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(300)
REPO = Path(__file__).resolve().parents[2]


def test_the_backup_benchmark_times_pbp_backup_against_tar():
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "backup.py"),
            "--games",
            "3",
            "--late-phase",
            "4",
            "--players",
            "6",
            "--rounds",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=280,
        cwd=REPO,
    )
    assert done.returncode in (0, 1), (
        done.stdout + done.stderr
    )  # 1 only means the target was missed
    assert "Traceback" not in done.stderr, done.stderr
    assert re.search(r"^pbp backup\s+[\d.]+ s \(median of 1\)", done.stdout, re.M), done.stdout
    assert re.search(r"^tar czf\s+[\d.]+ s \(median of 1\)", done.stdout, re.M), done.stdout
    last = done.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"ratio pbp backup/tar czf [\d.]+ \(need <= 1.5\): (OK|TOO SLOW)", last), (
        last
    )
