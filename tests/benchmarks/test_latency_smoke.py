"""The latency benchmark (benchmarks/latency.py) runs end to end at a tiny size. Timing is
the script's business, not the test suite's: this only checks that it completes against
its own servers and prints every line it promises."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
REPO = Path(__file__).resolve().parents[2]


def test_the_latency_benchmark_runs_and_reports_idle_and_polling():
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "latency.py"),
            "--rounds",
            "2",
            "--poll-rounds",
            "1",
            "--poll-interval",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=REPO,
        env={**os.environ, "PBP_LATENCY_GUARD": "60"},
    )  # it gives up, and cleans up, itself
    assert done.returncode in (0, 1), (
        done.stdout + done.stderr
    )  # 1 only means the target was missed
    assert "Traceback" not in done.stderr, done.stderr
    output = done.stdout + done.stderr  # a run that gave up says why on stderr
    assert re.search(
        r"^IDLE \(poll every 3600 s\)\s+median\s+[\d.]+ s .*\(2 rounds\)$", output, re.M
    ), output
    assert re.search(
        r"^poll every 1 s, measured\s+median\s+[\d.]+ s .*\(1 rounds\)$", output, re.M
    ), output
    assert re.search(
        r"^poll every 1 s, estimated\s+mean\s+[\d.]+ s .*an estimate, not a measurement\)$",
        output,
        re.M,
    ), output
    assert re.search(r"^IDLE median [\d.]+ s \(need < 2 s\): (OK|TOO SLOW)$", output, re.M), output
