"""The sending benchmarks (benchmarks/dispatch.py, benchmarks/deadline.py) run end to end
at a tiny size. Timing is the scripts' business, not the test suite's: this only checks
that each completes against its own SMTP server and prints its rounds and its ratio last."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]


def run_benchmark(name: str, *arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / name), *arguments],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert done.returncode == (0 if last.endswith(": OK") else 1), done.stdout + done.stderr
    return done.stdout


def test_the_dispatch_benchmark_prints_its_ratio_last():
    output = run_benchmark("dispatch.py", "--mails", "30", "--rounds", "2")
    assert (
        len(
            re.findall(
                r"^round \d   raw smtplib\s+[\d.]+ mail/s   pbp outbox\s+[\d.]+ mail/s   ratio [\d.]+$",
                output,
                re.M,
            )
        )
        == 2
    ), output
    assert re.search(r"\nratio pbp/raw [\d.]+ \(need >= 0\.8\): (OK|TOO SLOW)\n$", output), output


def test_the_deadline_benchmark_prints_its_ratio_last():
    output = run_benchmark("deadline.py", "--players", "8", "--rounds", "2")
    assert (
        len(
            re.findall(
                r"^round \d   engine .* raw send of 8 reports .* ratio [\d.]+$", output, re.M
            )
        )
        == 2
    ), output
    assert re.search(r"\nratio pbp/baseline [\d.]+ \(need <= 1\.5\): (OK|TOO SLOW)\n$", output), (
        output
    )
