"""The rule `scripts/balance-check` judges the law's grid by (docs/balance.md: Checking the
law): a grid of cells, each a count of village wins in some games against the law's exact
rate, passes when few enough cells miss their 95 % interval and the χ² over the cells is
not too large.

"Few enough" is a bound from the binomial law, not a share: each cell's chance to miss is
computed exactly (its count is binomial at the exact rate; the Wilson interval misses the
rate for some counts), the number of missed cells is then a sum of independent Bernoulli
draws (a Poisson-binomial law), and the bound is where that law's upper tail falls below
`alpha`. The χ² test gets its own `alpha`. On a correct engine the rule thus fails with
probability at most the sum of the two, which `false_alarm` reports.

numpy and scipy are imported inside the functions (docs/design.md: Start-up)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from pbp.balance.intervals import chi_square_p

# Each test's false-alarm rate on a correct engine: both together at most 0.2 %, so twenty
# runs in a row pass with probability at least 96 %.
MISSES_ALPHA = 0.001
CHI_SQUARE_ALPHA = 0.001
Z95 = 1.959963984540054


def _wilson_bounds(counts: Any, games: int) -> tuple[Any, Any]:
    """The Wilson 95 % interval of every count in `counts` (a numpy array) out of `games`,
    the same numbers as `intervals.wilson`, computed at once."""
    import numpy

    z2 = Z95 * Z95
    centre = (counts + z2 / 2) / (games + z2)
    half = Z95 / (games + z2) * numpy.sqrt(counts * (games - counts) / games + z2 / 4)
    return centre - half, centre + half


def miss_probability(rate: float, games: int) -> float:
    """The probability that a cell of `games` games at the exact `rate` misses it: the
    binomial mass of the counts whose Wilson interval does not hold `rate`."""
    import numpy
    from scipy.stats import binom

    counts = numpy.arange(games + 1, dtype=float)
    low, high = _wilson_bounds(counts, games)
    # A rate the interval's end equals up to rounding is inside (as in Cell.inside).
    outside = (rate < low - 1e-12) | (rate > high + 1e-12)
    return float(binom.pmf(counts[outside], games, rate).sum())


def misses_tail(probabilities: Sequence[float]) -> list[float]:
    """P(at least k cells miss) for k = 0 … len(probabilities): the Poisson-binomial law's
    upper tail, by convolving the cells one at a time."""
    import numpy

    law = numpy.zeros(len(probabilities) + 1)
    law[0] = 1.0
    for p in probabilities:
        law[1:] = law[1:] * (1 - p) + law[:-1] * p
        law[0] *= 1 - p
    tail = numpy.cumsum(law[::-1])[::-1]
    return [float(value) for value in tail]


def misses_bound(probabilities: Sequence[float], alpha: float = MISSES_ALPHA) -> int:
    """The most cells that may miss: the least k with P(more than k miss) ≤ alpha."""
    tail = misses_tail(probabilities) + [0.0]
    return next(k for k in range(len(tail)) if tail[k + 1] <= alpha)


@dataclass(frozen=True)
class Cell:
    """One cell of the grid: `wins` village wins in `games` games; `rate` is exact."""

    wins: int
    games: int
    rate: float

    @property
    def inside(self) -> bool:
        import numpy

        low, high = _wilson_bounds(numpy.array([float(self.wins)]), self.games)
        return bool(low[0] - 1e-12 <= self.rate <= high[0] + 1e-12)


@dataclass(frozen=True)
class Verdict:
    missed: int
    bound: int
    chi_square_p: float

    @property
    def passed(self) -> bool:
        return self.missed <= self.bound and self.chi_square_p > CHI_SQUARE_ALPHA

    def words(self) -> str:
        return (
            f"{self.missed} cells outside their interval (at most {self.bound} allowed: the"
            f" binomial bound at {MISSES_ALPHA:g}); χ² p = {self.chi_square_p:.4f} (must exceed"
            f" {CHI_SQUARE_ALPHA:g})"
        )


def judge(cells: Sequence[Cell]) -> Verdict:
    """The rule applied to a grid's counts."""
    bound = misses_bound([miss_probability(c.rate, c.games) for c in cells])
    missed = sum(not c.inside for c in cells)
    p = chi_square_p([c.wins for c in cells], [c.rate for c in cells], [c.games for c in cells])
    return Verdict(missed, bound, p)


def false_alarm(cells: Sequence[tuple[float, int]]) -> float:
    """The probability that the rule fails a correct engine on a grid of (exact rate,
    games) cells: at most the binomial bound's tail plus the χ² test's alpha."""
    probabilities = [miss_probability(rate, games) for rate, games in cells]
    bound = misses_bound(probabilities)
    return (misses_tail(probabilities) + [0.0])[bound + 1] + CHI_SQUARE_ALPHA


def planted(wins: int, games: int, bias: float, draw: float) -> int:
    """`wins` moved by a planted bias of `bias` (a fraction of the games, either sign), with
    the rounding of the fractional game decided by `draw` in [0, 1): what a broken engine
    whose village wins `bias` more often would have counted."""
    shifted = wins + bias * games
    whole = int(shifted // 1)
    return max(0, min(games, whole + (1 if draw < shifted - whole else 0)))
