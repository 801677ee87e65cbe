"""The random-lynch law (docs/balance.md: The exact law): the village's chance to win a
game of villagers and wolves when every day lynches a player drawn uniformly from the
living and every night the wolves kill a villager drawn uniformly, under pbp's victory
rules (the wolves win at the start of a day when they are at least as many as the
villagers; the village wins when no wolf is left).

    P(n, 0) = 1;   P(n, m) = 0 when m >= n - m;
    P(n, m) = m/n * P(n-2, m-1) + (1 - m/n) * P(n-2, m)        (day first)

A night-first game of n players is a day-first game of n - 1 after its first night.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache


@lru_cache(maxsize=None)
def village_wins(players: int, wolves: int, night_first: bool = False) -> Fraction:
    """The exact probability that the village wins."""
    if night_first and wolves:
        return village_wins(players - 1, wolves)
    if wolves == 0:
        return Fraction(1)
    if wolves >= players - wolves:
        return Fraction(0)
    lynched_wolf = Fraction(wolves, players)
    return lynched_wolf * village_wins(players - 2, wolves - 1) + (1 - lynched_wolf) * village_wins(
        players - 2, wolves
    )
