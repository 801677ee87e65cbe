"""The lynch, step 1 of a decision phase's resolution (rules: Resolution §1, Lynch)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Mapping

from engine.infiltration.orders.values import NO_LYNCH, NO_REDS_LEFT

LYNCHED, NOBODY, NO_REDS_LEFT_PASSED = "lynched", "nobody", "no-reds-left"


@dataclass(frozen=True)
class LynchOutcome:
    kind: str  # lynched, nobody or no-reds-left
    victim: str | None
    votes: dict[str, str]  # voter -> choice, as counted (phantom votes included)
    phantom: tuple[str, ...]  # voters whose vote is a phantom vote
    tally: dict[str, int]  # choice -> count
    reason: str  # why nobody was lynched: no-votes, tie, no-lynch, no-reds-left-short


def count_votes(
    votes: Mapping[str, str],
    living_players: list[str],
    tie_rule: str,
    phantom_votes: bool,
    rng: random.Random,
) -> LynchOutcome:
    """Only living players' votes count; the option with the most votes wins.

    Ties: `no-lynch` (nobody) or `random` among the tied options, NO LYNCH included; if
    NO REDS LEFT is among the tied, nobody. NO REDS LEFT passes only when every living
    player votes for it; with the most votes but not all, the result is no lynch. Phantom
    votes (option): a living player who did not vote counts as voting to lynch themself.
    A vote for a player no longer alive (a host kill since it was given) does not count.
    """
    counted, phantom = _counted_votes(votes, living_players, phantom_votes)
    tally = _tally(counted)

    def outcome(kind: str, victim: str | None = None, reason: str = "") -> LynchOutcome:
        return LynchOutcome(kind, victim, counted, phantom, tally, reason)

    if not tally:
        return outcome(NOBODY, reason="no-votes")
    if living_players and tally.get(NO_REDS_LEFT, 0) == len(living_players):
        return outcome(NO_REDS_LEFT_PASSED)
    top = max(tally.values())
    leaders = sorted(choice for choice, count in tally.items() if count == top)
    if len(leaders) > 1:
        if tie_rule != "random" or NO_REDS_LEFT in leaders:
            return outcome(NOBODY, reason="tie")
        winner = rng.choice(leaders)
    else:
        winner = leaders[0]
    if winner == NO_LYNCH:
        return outcome(NOBODY, reason="no-lynch")
    if winner == NO_REDS_LEFT:
        return outcome(NOBODY, reason="no-reds-left-short")
    return outcome(LYNCHED, winner)


def _counted_votes(
    votes: Mapping[str, str], living_players: list[str], phantom_votes: bool
) -> tuple[dict[str, str], tuple[str, ...]]:
    """The votes that count, by voter, and the phantom voters (each voting for themself)."""
    counted = {
        voter: choice
        for voter, choice in votes.items()
        if voter in living_players
        and (choice in (NO_LYNCH, NO_REDS_LEFT) or choice in living_players)
    }
    phantom: tuple[str, ...] = ()
    if phantom_votes:
        phantom = tuple(sorted(p for p in living_players if p not in votes))
        counted.update({p: p for p in phantom})
    return dict(sorted(counted.items())), phantom


def _tally(counted: Mapping[str, str]) -> dict[str, int]:
    """Votes per choice, most first (ties by name)."""
    tally: dict[str, int] = {}
    for choice in counted.values():
        tally[choice] = tally.get(choice, 0) + 1
    return dict(sorted(tally.items(), key=lambda item: (-item[1], item[0])))
