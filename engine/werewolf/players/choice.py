"""Drawing a choice from scores (docs/balance.md: Skill): a softmax at inverse temperature
`beta`, driven by a number u in [0, 1) so that players who share a coin draw alike. At
beta 0 every candidate is equally likely, exactly."""

from __future__ import annotations

import math
import random
from typing import Mapping, Sequence

# Inverse temperature at skill 1: a suspect one trusted Seer result ahead of the rest
# (3 points) is then e^(3*BETA_AT_FULL_SKILL) times likelier than each of them.
BETA_AT_FULL_SKILL = 2.5
KNOWN = 50.0  # a score that is certain (a player's own vision, their own innocence)


def beta_of(skill: float) -> float:
    return BETA_AT_FULL_SKILL * skill


def pick(candidates: Sequence[str], scores: Mapping[str, float], beta: float, u: float) -> str:
    """One candidate, with probability proportional to exp(beta * score)."""
    if beta == 0.0:
        return candidates[min(int(u * len(candidates)), len(candidates) - 1)]
    top = max(scores.get(c, 0.0) for c in candidates)
    weights = [math.exp(beta * (scores.get(c, 0.0) - top)) for c in candidates]
    mark = u * sum(weights)
    for candidate, weight in zip(candidates, weights):
        mark -= weight
        if mark < 0:
            return candidate
    return candidates[-1]


def shared_draw(coin: int, purpose: str) -> float:
    """A further number in [0, 1) from a shared coin: everyone holding the coin gets it."""
    return random.Random(f"{coin}/{purpose}").random()
