"""Intervals for rates counted in games: the Wilson score interval (docs/balance.md).

`scipy.stats` is imported inside each function, not here: it takes the better part of a
second to load, which whatever imports these names without computing an interval
(`pbp balance --help`, the modules of `pbp stats`) need not pay (docs/design.md: Start-up).
"""

from __future__ import annotations


def wilson(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a rate of `successes` in `trials`, as fractions."""
    if trials == 0:
        return 0.0, 1.0
    from scipy.stats import binomtest

    interval = binomtest(successes, trials).proportion_ci(
        confidence_level=confidence, method="wilson"
    )
    return float(interval.low), float(interval.high)


def games_for_half_width(half_width: float, confidence: float = 0.95) -> int:
    """Games enough that a rate's 95 % interval is at most ±`half_width` wherever the rate
    lies (the worst case, a rate of one half)."""
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + confidence / 2))
    return int((z / (2 * half_width)) ** 2) + 1


def chi_square_p(observed: list[int], expected: list[float], trials: list[int]) -> float:
    """The p value of binomial counts against their expected rates, one degree of freedom
    per cell (the χ² of docs/balance.md: Calibration)."""
    from scipy.stats import chi2

    statistic = 0.0
    cells = 0
    for seen, rate, games in zip(observed, expected, trials):
        if 0.0 < rate < 1.0:
            statistic += (seen - rate * games) ** 2 / (games * rate * (1 - rate))
            cells += 1
    return float(chi2.sf(statistic, cells)) if cells else 1.0
