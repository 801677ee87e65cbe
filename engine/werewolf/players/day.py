"""Nominations and votes (docs/balance.md: The day).

The village coordinates as a thread does: every player reads the same public record, so
the same public scores, and the day's public coin draws one suspect from them (a softmax
at the village's skill); that is the village's wagon. At skill 0 the draw is uniform and
everyone follows it: the random lynch of the theory, exactly. With skill, a villager leaves
the wagon when what only they know says otherwise (their own innocence, a Mason partner,
their own vision), and votes between two defendants by their own scores.

Wolves join a villager's wagon; when the wagon is a packmate they either bus him (when the
village is sure of him) or push their own wagon against the villager the village most
suspects. At the vote a skilled wolf hides: it votes as the village's wagon goes, never
for a packmate's life, since a vote to save a player who then flips wolf is what the
village reads (docs/balance.md: Two skills).
"""

from __future__ import annotations

import random
from typing import Sequence

from engine.core import OrderSpec
from engine.players import Seen
from engine.werewolf.players.choice import KNOWN, pick, shared_draw
from engine.werewolf.players.mind import PACK_CHANNEL, Mind

BUS_RATE = 0.6  # at skill 1: the pack sacrifices a packmate the village is sure of
DOOMED = 1.5  # the public score from which a packmate counts as doomed
CONVICTION = 1.5  # how much surer a villager must be to leave the wagon at the vote


def wagon(mind: Mind, seen: Seen) -> str:
    """The village's wagon of the day: the public coin's draw over the public scores."""
    if mind.day not in mind.consensus:
        living = mind.living
        mind.consensus[mind.day] = pick(living, mind.public(), mind.village_beta, seen.coin_draw())
    return mind.consensus[mind.day]


def follows_protocol(mind: Mind, rng: random.Random) -> bool:
    """Whether this decision simply follows the village's draw (always at skill 0)."""
    return mind.skill == 0.0 or rng.random() >= mind.skill


def nominate(mind: Mind, seen: Seen, spec: OrderSpec, rng: random.Random) -> str:
    """A nomination, or "" when there is nobody to nominate: a lover may not nominate their
    lover (docs/rules/werewolf.md: Orders and receipts), so the lover of a runoff's last
    candidate (the host removed the other) has no choice left."""
    choices = list(spec.choices)
    if not choices:
        return ""
    target = wagon(mind, seen)
    if seen.phase.endswith("-runoff"):
        target = runoff_choice(mind, choices)
    elif not follows_protocol(mind, rng):
        target = (
            wolf_wagon(mind, seen) if mind.is_wolf else village_choice(mind, target, choices, rng)
        )
    if target not in choices:
        target = rng.choice(choices)
    return f"NOMINATE {target}"


def runoff_choice(mind: Mind, choices: Sequence[str]) -> str:
    """Among the tied: the wolves' least-liked outsider, a villager's top suspect."""
    if mind.is_wolf:
        outsiders = [name for name in choices if name not in mind.pack] or list(choices)
        scores = mind.public()
        return max(outsiders, key=lambda name: scores.get(name, 0.0))
    scores = mind.private()
    return max(choices, key=lambda name: scores.get(name, 0.0))


def village_choice(mind: Mind, target: str, choices: Sequence[str], rng: random.Random) -> str:
    scores = mind.private()
    certain_wolves = [name for name in choices if scores.get(name, 0.0) >= KNOWN]
    if certain_wolves:
        return certain_wolves[0]
    if scores.get(target, 0.0) <= -KNOWN:
        return pick(list(choices), scores, mind.beta, rng.random())
    return target


def pack_buses(mind: Mind, seen: Seen, wolf: str) -> bool:
    doomed = mind.public().get(wolf, 0.0) >= DOOMED
    return (
        doomed
        and shared_draw(seen.team_coins.get(PACK_CHANNEL, 0), f"bus/{mind.day}")
        < BUS_RATE * mind.skill
    )


def wolf_wagon(mind: Mind, seen: Seen) -> str:
    """Where the pack nominates: the village's wagon, unless it is a packmate the pack
    will not sacrifice; then the villager the village suspects most."""
    target = wagon(mind, seen)
    if target not in mind.pack or pack_buses(mind, seen, target):
        return target
    scores = mind.public()
    outsiders = [name for name in mind.living if name not in mind.pack]
    return max(outsiders, key=lambda name: scores[name]) if outsiders else target


def vote(mind: Mind, seen: Seen, spec: OrderSpec, rng: random.Random) -> str:
    choices = list(spec.choices)
    defendants = [name for name in choices if name != "NO LYNCH"]
    if not defendants:
        return f"VOTE {choices[0]}" if choices else ""
    drawn = mind.consensus.get(mind.day)
    if follows_protocol(mind, rng):
        target = (
            drawn
            if drawn in defendants
            else max(defendants, key=lambda name: mind.public().get(name, 0.0))
        )
        return f"VOTE {target}"
    if mind.is_wolf:
        return f"VOTE {wolf_vote(mind, defendants)}"
    scores = mind.private()
    if "NO LYNCH" in choices and scores.get(defendants[0], 0.0) <= -2.0:
        return "VOTE NO LYNCH"
    if drawn in defendants:
        # Stay on the village's wagon, unless what I know says clearly otherwise: a
        # village that splits its votes hands every trial to the wolves' bloc.
        other = next((name for name in defendants if name != drawn), drawn)
        return (
            "VOTE"
            f" {other if scores.get(other, 0.0) - scores.get(drawn, 0.0) >= CONVICTION else drawn}"
        )
    return f"VOTE {pick(defendants, scores, mind.beta, rng.random())}"


def wolf_vote(mind: Mind, defendants: list[str]) -> str:
    """A skilled wolf hides: it votes where the village will, the wagon unless the public
    scores put another defendant clearly ahead (as a villager leaves the wagon), even
    when that is a packmate; on trial itself it votes for the other, as anyone would."""
    public = mind.public()
    drawn = mind.consensus.get(mind.day)
    favourite = max(defendants, key=lambda name: public.get(name, 0.0))
    village = (
        drawn
        if drawn in defendants and public.get(favourite, 0.0) - public.get(drawn, 0.0) < CONVICTION
        else favourite
    )
    if village != mind.name:
        return village
    others = [name for name in defendants if name != mind.name]
    return max(others, key=lambda name: public.get(name, 0.0)) if others else mind.name
