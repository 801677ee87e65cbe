"""The ingest benchmark (benchmarks/ingest.py) runs end to end at a tiny
size. Timing is the script's business, not the test suite's: this only checks that it
completes against its own Dovecot and prints every line it promises."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration
REPO = Path(__file__).resolve().parents[2]


def test_the_ingest_benchmark_runs_and_reports_both_comparisons():
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "ingest.py"),
            "--messages",
            "50",
            "--idle-messages",
            "200",
            "--rounds",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 1 only means a target was missed
    assert "Traceback" not in done.stderr, done.stderr
    output = done.stdout
    assert (
        len(
            re.findall(
                r"^round \d   baseline\s+[\d.]+ msg/s   pbp\s+[\d.]+ msg/s   ratio [\d.]+$",
                output,
                re.M,
            )
        )
        == 2
    ), output
    assert re.search(r"^baseline\s+50 msgs\s+[\d.]+ s\s+[\d.]+ msg/s", output, re.M), output
    assert re.search(
        r"^pbp ingest 50 msgs\s+[\d.]+ s\s+[\d.]+ msg/s .*filed \d+ processed, \d+ rejected",
        output,
        re.M,
    ), output
    assert re.search(
        r"^ratio pbp/baseline [\d.]+ \(median of 2 rounds; rounds' ratios [\d.]+-[\d.]+; need >= 0\.8\): "
        r"(OK|TOO SLOW)$",
        output,
        re.M,
    ), output
    assert re.search(r"^idle poll fresh mailbox\s+[\d.]+ ms", output, re.M), output
    assert re.search(r"^idle poll after 200 msgs\s+[\d.]+ ms", output, re.M), output
    assert re.search(
        r"^ratio idle after/fresh [\d.]+ \(need <= 1\.5\): (OK|TOO SLOW)$", output, re.M
    ), output
    expected_status = 0 if output.count(": OK") == 2 else 1
    assert done.returncode == expected_status, output
