"""The README shows real excerpts of a report and of a post: each excerpt that names a
golden transcript must be found in it word for word, so the README never drifts from what
pbp writes (regenerate the transcripts with `scripts/golden`, then fix the README)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# "(`tests/golden/<ruleset>/<file>`):" followed by a fenced block
EXCERPT = re.compile(r"\(`(tests/golden/[^`]+)`\):\n\n```\n(.*?)```", re.S)


def test_every_readme_excerpt_of_a_transcript_is_in_that_transcript():
    excerpts = EXCERPT.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(excerpts) >= 2, "the README shows a report and a post from the demo games"
    for path, excerpt in excerpts:
        assert excerpt.strip() in (ROOT / path).read_text(encoding="utf-8"), f"README excerpt of {path} drifted"
