"""The running public tally of an open phase (rules: accepted nominations and votes are
public as soon as they are accepted; a running tally shows each player's latest).

The votes are the engine's own typed orders, read from the accepted blocks exactly as the
resolution will read them (pbp.standing_orders), and worded by the ruleset card's
`public_choice`; nothing else of a player's orders is read. A forum post (pbp.forum) and
a `STATUS` reply show the same count.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from engine.core import Phase, RulesetCard
from pbp.game.record import StoredGame
from pbp.standing_orders import standing_orders


def has_public_orders(card: RulesetCard, phase: Phase) -> bool:
    """Whether anyone in `phase` gives an order that is public once accepted (a vote)."""
    public = set(card.public_orders)
    return any(spec.keyword in public for specs in phase.grammar.values() for spec in specs)


def current_votes(game: StoredGame) -> dict[str, str]:
    """Each player's latest public choice (a nomination, a vote) in the open phase."""
    if game.phase is None:
        return {}
    blocks = {player: row["text"].splitlines() for player, row in game.latest_orders(game.phase.id).items()}
    votes = {}
    for player, orders in standing_orders(game.rules, game.state, game.phase, blocks).items():
        for order in orders:
            choice = game.rules.card.public_choice(order)
            if choice is not None:
                votes[player] = choice
    return votes


def tally(votes: Sequence[tuple[str, str]], voters: Sequence[str] = ()) -> dict[str, Any]:
    """Each choice with who chose it (most first, then alphabetical), and who did not
    vote: `{"rows": [{"choice", "count", "voters"}], "missing": [...]}`."""
    by_choice: dict[str, list[str]] = {}
    for voter, choice in votes:
        by_choice.setdefault(choice, []).append(voter)
    counts = Counter({choice: len(names) for choice, names in by_choice.items()})
    rows = [{"choice": choice, "count": count, "voters": sorted(by_choice[choice], key=str.lower)}
            for choice, count in sorted(counts.items(), key=lambda item: (-item[1], item[0].lower()))]
    voted = {voter for voter, _ in votes}
    return {"rows": rows, "missing": sorted((v for v in voters if v not in voted), key=str.lower)}


def living_voters(game: StoredGame) -> list[str]:
    """The living players (never NPCs) who act in the open phase."""
    view = game.rules.view(game.state, None)
    actors = set(game.phase.actors) if game.phase else set()
    return [p["name"] for p in view.get("players", [])
            if isinstance(p, dict) and p.get("alive") and not p.get("npc") and p["name"] in actors]


def running_tally(game: StoredGame) -> dict[str, Any] | None:
    """The open phase's count as `tally` gives it, with the phase in words, or None when
    nobody gives a public order in it."""
    if game.phase is None or not has_public_orders(game.rules.card, game.phase):
        return None
    voters = living_voters(game)
    votes = sorted((player, choice) for player, choice in current_votes(game).items() if player in voters)
    return {"phase": game.rules.card.phase_words(game.phase.id), **tally(votes, voters)}
