"""The running public tally of an open phase, and when a count is due (rules: accepted
nominations and votes are public as soon as they are accepted; a running tally shows each
player's latest).

The votes are the engine's own typed orders, read from the accepted blocks exactly as the
resolution will read them (pbp.game.standing_orders), and worded by the ruleset card's
`public_choice`; nothing else of a player's orders is read. A forum post (pbp.forum) and
a `STATUS` reply show the same count.

A count is due every `tally_every` (pbp.game.options) after a voting phase opens, until
its deadline; pbp.forum.thread.running_counts drafts them, pbp.daemon.wake_up wakes for them.
Rules chosen where the design is silent:
- The first count comes one interval after the phase opens, never at its opening (the
  phase's own post has just shown the previous count), and none at or after the deadline
  (the resolution's post carries the final count).
- If several counts fell due at once (pbp was down), only the latest is drafted: one
  count of the votes as they stand now, not several identical ones.
- A count is drafted only in a phase where players give public orders (the ruleset
  card's `public_orders`: nominations, votes).
"""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any, Sequence

from engine.core import Phase, RulesetCard
from pbp.game.stored import StoredGame
from pbp.game.standing_orders import standing_orders


def has_public_orders(card: RulesetCard, phase: Phase) -> bool:
    """Whether anyone in `phase` gives an order that is public once accepted (a vote)."""
    public = set(card.public_orders)
    return any(spec.keyword in public for specs in phase.grammar.values() for spec in specs)


def current_votes(game: StoredGame) -> dict[str, str]:
    """Each player's latest public choice (a nomination, a vote) in the open phase."""
    if game.phase is None:
        return {}
    blocks = {player: row.lines for player, row in game.latest_orders(game.phase.id).items()}
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
    rows = [
        {"choice": choice, "count": count, "voters": sorted(by_choice[choice], key=str.lower)}
        for choice, count in sorted(counts.items(), key=lambda item: (-item[1], item[0].lower()))
    ]
    voted = {voter for voter, _ in votes}
    return {"rows": rows, "missing": sorted((v for v in voters if v not in voted), key=str.lower)}


def living_voters(game: StoredGame) -> list[str]:
    """The living players (never NPCs) who act in the open phase."""
    actors = set(game.phase.actors) if game.phase else set()
    return [
        character.name
        for character in game.rules.card.public_roster(game.rules.view(game.state, None))
        if character.alive and not character.npc and character.name in actors
    ]


def running_tally(game: StoredGame) -> dict[str, Any] | None:
    """The open phase's count as `tally` gives it, with the phase in words, or None when
    nobody gives a public order in it."""
    if game.phase is None or not has_public_orders(game.rules.card, game.phase):
        return None
    voters = living_voters(game)
    votes = sorted(
        (player, choice) for player, choice in current_votes(game).items() if player in voters
    )
    return {"phase": game.rules.card.phase_words(game.phase.id), **tally(votes, voters)}


def due_slot(
    *, opened: datetime, deadline: datetime, now: datetime, every: timedelta
) -> int | None:
    """The number of the latest count due by `now` (1 is one interval after opening), or
    None before the first one and from the deadline on."""
    if now >= deadline or now < opened + every:
        return None
    slot = int((now - opened) / every)
    return slot if opened + slot * every < deadline else None


def next_time(
    *, opened: datetime, deadline: datetime, now: datetime, every: timedelta
) -> datetime | None:
    """When the next count after `now` falls due, or None if none does before the deadline."""
    slot = max(int((now - opened) / every) + 1, 1)
    moment = opened + slot * every
    return moment if moment < deadline else None
