"""`pbp balance --suggest` (docs/balance.md: A fairer setup): the setups one step away from
the host's, played in rounds; after each round a setup whose 99 % interval already lies
wholly outside the balanced band is dropped (sequential testing), so the games go to the
setups that may be fair and the run time stays bounded by rounds × setups."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from engine.core import GameSetupError, Ruleset
from engine.players import SkillLike
from engine.simulation import PlayedGame
from pbp.balance.estimate import Estimate, estimate
from pbp.balance.intervals import wilson
from pbp.balance.runs import play_in_parallel
from pbp.balance.verdict import BAND, Verdict, verdict

ROUNDS = 4  # a setup that is never dropped plays its games in this many rounds
DROP_CONFIDENCE = 0.99  # stricter than the reported 95 %: a drop is made after every round


@dataclass
class Candidate:
    change: str
    options: dict[str, str]
    records: list[PlayedGame] = field(default_factory=list)
    dropped: bool = False


@dataclass(frozen=True)
class Suggestion:
    change: str
    options: Mapping[str, str]
    found: Estimate
    judged: Verdict
    dropped: bool


def clearly_outside(judged: Verdict | None) -> bool:
    if judged is None:
        return False
    low, high = wilson(judged.rate.count, judged.rate.games, DROP_CONFIDENCE)
    return high < BAND[0] or low > BAND[1]


def suggest(
    rules: Ruleset,
    players: int,
    options: Mapping[str, Any],
    games: int,
    skill: SkillLike,
    seed: str,
    jobs: int,
    on_game: Callable[[int], None] | None = None,
) -> list[Suggestion]:
    """Every nearby setup (and the rules' proposal for the size), fairest first; each has
    played up to `games` games."""
    candidates = _candidates(rules, players, options)
    per_round = max(1, -(-games // ROUNDS))
    done = 0
    for round_ in range(ROUNDS):
        for candidate in candidates:
            if candidate.dropped:
                continue
            count = min(per_round, games - len(candidate.records))
            if count <= 0:
                continue

            def moved(played: int, before: int = done) -> None:
                if on_game:
                    on_game(before + played)

            try:
                candidate.records += play_in_parallel(
                    rules,
                    players,
                    count,
                    f"{seed}/suggest/{candidate.change}/{round_}",
                    candidate.options,
                    jobs,
                    moved,
                    skill,
                )
            except GameSetupError:
                candidate.dropped, candidate.records = True, []
                continue
            done += count
            if clearly_outside(verdict(rules.card, estimate(candidate.records, players, skill))):
                candidate.dropped = True
    return _suggestions(rules, players, skill, candidates)


def _candidates(rules: Ruleset, players: int, options: Mapping[str, Any]) -> list[Candidate]:
    """The nearby setups, the rules' proposal for the size first when it is not one of them."""
    variants = rules.card.setup_variants
    found = list(variants.nearby(players, options))
    proposal = variants.proposed(players, options)
    if proposal and all(proposal[1] != other for _, other in found):
        found.insert(0, proposal)
    return [Candidate(change, dict(chosen)) for change, chosen in found]


def _suggestions(
    rules: Ruleset, players: int, skill: SkillLike, candidates: list[Candidate]
) -> list[Suggestion]:
    """Each candidate that played and has a verdict, fairest first, those dropped last."""
    suggestions = []
    for candidate in candidates:
        found_ = estimate(candidate.records, players, skill)
        judged = verdict(rules.card, found_)
        if candidate.records and judged:
            suggestions.append(
                Suggestion(candidate.change, candidate.options, found_, judged, candidate.dropped)
            )
    return sorted(suggestions, key=lambda s: (s.dropped, s.judged.distance))
