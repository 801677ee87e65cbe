"""The checked-in transcripts under tests/golden/ are what pbp does today: a demo game's
every post, one player's complete mailbox, a digest of every mailbox, and a small
simulation, per ruleset. A change of behaviour shows here as a diff; when it is meant,
run `scripts/golden` and read the diff before committing it."""

from __future__ import annotations

import pytest

from tests.golden.transcript import GOLDEN, RULESETS, transcripts


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_scripted_game_reads_exactly_as_checked_in(ruleset):
    for name, text in transcripts(ruleset).items():
        expected = (GOLDEN / ruleset / name).read_text()
        assert text == expected, (
            f"tests/golden/{ruleset}/{name} differs; run scripts/golden and read the diff"
        )
