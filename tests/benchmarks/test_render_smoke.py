"""The render benchmark (benchmarks/render.py) runs end to end at a tiny size and prints a
line per language and each translated language's ratio to English; timing itself is the
script's business, not the test suite's."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pbp.render.languages import languages

REPO = Path(__file__).resolve().parents[2]


def test_the_render_benchmark_reports_every_language_against_english():
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "render.py"), "--rounds", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert "Traceback" not in done.stderr, done.stderr
    for code in languages():
        assert re.search(
            rf"^{code}:\s+[\d.]+ ms per report, \d+ reports x 1 rounds$", done.stdout, re.M
        ), done.stdout
    ratios = [
        float(r)
        for r in re.findall(r"^ratio \w+/en: ([\d.]+) \(must be <= 1.1\)$", done.stdout, re.M)
    ]
    assert len(ratios) == len(languages()) - 1, done.stdout
    assert done.returncode == (0 if all(ratio <= 1.1 for ratio in ratios) else 1)
