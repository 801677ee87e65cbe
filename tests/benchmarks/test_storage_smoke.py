"""The storage benchmark (benchmarks/storage.py) runs end to end at a tiny size. Timing is
the script's business, not the test suite's: this only checks that it completes and
prints every line it promises."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_the_storage_benchmark_runs_and_reports_both_costs_and_the_document_size():
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "storage.py"),
            "--players",
            "6",
            "--late-phase",
            "5",
            "--rounds",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 1 only means a target was missed
    assert "Traceback" not in done.stderr, done.stderr
    output = done.stdout
    for what in ("ingest", "resolution"):
        assert re.search(
            rf"^{what}\s+phase 2\s+[\d.]+ ms   phase 5\s+[\d.]+ ms .* ratio [\d.]+", output, re.M
        ), output
    assert re.search(
        r"^game document at phase 5\s+[\d.]+ KB \(need <= 500 KB\): (OK|TOO BIG)", output, re.M
    ), output
    assert re.search(
        r"^ratio phase 5/phase 2 [\d.]+ .*\(.*need <= 1\.5\): (OK|TOO SLOW)$", output, re.M
    ), output
    assert done.returncode == (0 if output.count(": OK") == 2 else 1), output
