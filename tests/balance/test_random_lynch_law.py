"""At skill 0 the scripted village plays the theory's random lynch, so a plain game lands on
the exact random-lynch law (docs/balance.md: The exact law). A few cells at a few hundred
games each, day first and night first; `scripts/balance-check` runs the whole grid."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pbp.balance.calibration import law_cell
from pbp.balance.law import village_wins

CELLS = [(7, 1, False), (9, 2, False), (10, 2, True), (12, 3, True)]


def test_the_law_matches_the_published_table_and_the_recurrence():
    """The values of docs/balance.md: 9 players, 2 wolves: 29.8 %; 21 and 4: 20.2 %; the
    odd-n closed form P(n, 2) = 1 + 1/n - 2 (n-1)!!/n!!; night first is day first one
    player shorter."""
    assert round(float(village_wins(9, 2)), 3) == 0.298
    assert round(float(village_wins(21, 4)), 3) == 0.202
    for n in range(5, 41, 2):
        ratio = Fraction(1)
        for i in range(1, (n - 1) // 2 + 1):
            ratio *= Fraction(2 * i, 2 * i + 1)
        assert village_wins(n, 2) == 1 + Fraction(1, n) - 2 * ratio
    assert village_wins(10, 2, night_first=True) == village_wins(9, 2)
    assert village_wins(6, 3) == 0 and village_wins(8, 0) == 1


@pytest.mark.parametrize(("players", "wolves", "night_first"), CELLS)
def test_skill_zero_lands_inside_the_interval_of_the_law(players, wolves, night_first):
    cell = law_cell(players, wolves, night_first, games=300, seed="law-ci")
    low, high = cell.interval
    assert cell.inside, (
        f"{players}/{wolves}: {cell.village_wins}/300 [{low:.3f}, {high:.3f}] vs {cell.exact:.3f}"
    )
