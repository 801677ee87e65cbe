"""A change to a ruleset's rulings or to the shape of its state bumps the rules version on
its card (docs/design.md: Releases and upgrades): the digests of a seeded game's start
state and of its whole history, recorded per rules version, must stay as they were."""

from __future__ import annotations

import pytest

import engine
from tests.upgrades.rules_digests import digests, recorded

RECORD = "python3 -m tests.upgrades.rules_digests --record"


@pytest.mark.parametrize("ruleset", engine.rulesets())
def test_the_rules_do_not_change_without_a_new_rules_version(ruleset):
    version = engine.ruleset(ruleset).card.rules_version
    known = recorded().get(ruleset, {})
    assert str(version) in known, (
        f"{ruleset} rules version {version} has no recorded digests; record them with `{RECORD}`."
    )
    assert version >= max(map(int, known)), f"{ruleset}'s rules version went back to {version}."
    now = digests(ruleset)
    for what in ("start", "history"):
        assert now[what] == known[str(version)][what], (
            f"The {what} of a seeded {ruleset} game changed, but its rules version is still {version}: bump "
            f"rules_version on its card (engine/{ruleset}/card.py) and record the new digests with `{RECORD}`."
        )
