"""`scripts/balance-check`'s rule for the law's grid (docs/balance.md: Checking the law): on
a correct engine it fails rarely enough to pass twenty runs in a row, and it fails a
village that wins 3 points too often."""

from __future__ import annotations

import numpy

from pbp.balance.law import village_wins
from pbp.balance.law_check import Cell, false_alarm, judge, miss_probability, misses_bound, planted

GRID = [
    (float(village_wins(n, m, night_first)), n, m)
    for night_first in (False, True)
    for n in range(5, 26)
    for m in range(1, 5)
]


def grid(games: int, bias: float, seed: int) -> list[Cell]:
    """The grid's counts as a correct engine (bias 0) or a biased one would draw them."""
    draws = numpy.random.default_rng(seed)
    cells = []
    for rate, _, _ in GRID:
        wins = int(draws.binomial(games, rate))
        cells.append(Cell(planted(wins, games, bias, float(draws.random())), games, rate))
    return cells


def test_twenty_runs_in_a_row_pass_a_correct_engine_with_probability_above_95_percent():
    """The rule's false-alarm probability, computed exactly for the binomial bound and at
    its alpha for the χ² test, at the script's 1,000 games a cell and at CI's 300."""
    for games in (1000, 300):
        alarm = false_alarm([(rate, games) for rate, _, _ in GRID])
        assert alarm <= 0.0025
        assert (1 - alarm) ** 20 >= 0.95


def test_the_old_share_rule_failed_about_half_the_time_and_the_bound_allows_the_expected_misses():
    """'At least 95 % of the cells inside' allowed 8 misses of 168, about what chance
    gives; the binomial bound sits well above the expected count."""
    probabilities = [miss_probability(rate, 1000) for rate, _, _ in GRID]
    expected = sum(probabilities)
    assert 6 < expected < 9
    assert misses_bound(probabilities) >= expected + 3 * expected**0.5


def test_a_cell_misses_about_five_percent_of_the_time_and_a_certain_cell_never():
    assert 0.03 < miss_probability(0.3, 1000) < 0.07
    assert miss_probability(0.0, 1000) == 0.0


def test_correct_grids_pass_twenty_times_in_a_row_and_a_planted_bias_of_three_points_fails_each_time():
    for seed in range(20):
        assert judge(grid(1000, 0.0, seed)).passed
        assert not judge(grid(1000, 0.03, seed)).passed
        assert not judge(grid(1000, -0.03, seed)).passed


def test_the_verdict_says_how_many_cells_missed_and_what_was_allowed():
    words = judge(grid(300, 0.0, 1)).words()
    assert "cells outside their interval" in words and "at most" in words and "χ² p =" in words
