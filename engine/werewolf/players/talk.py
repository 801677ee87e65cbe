"""Claims in the thread (docs/balance.md: Claims). A claim is a post of kind `claim` with
the claimed role and results (player → `wolf` / `not wolf`); a later claim of the same
author replaces the earlier one. Everyone reads every claim.

- The Seer claims when she found a wolf, when she is on trial, or late in the game, each
  with probability `skill`; once claimed she publishes every new vision.
- The Apothecary claims her results when one of them was a wolf.
- A Mason claims his partner when the partner stands trial.
- Wolves counterclaim: when a claim names a packmate, the pack (by its coin) has that
  packmate, or another wolf, claim Seer and call the claimant a wolf; now and then a wolf
  claims Seer first and names a villager. A fake Seer goes on naming villagers.
"""

from __future__ import annotations

import random

from engine.players import Post, Seen
from engine.werewolf.players.choice import shared_draw
from engine.werewolf.players.mind import PACK_CHANNEL, Mind
from engine.werewolf.players.record import NOT_WOLF, WOLF

COUNTERCLAIM_RATE = 0.8  # at skill 1: the pack answers a claim that names a packmate
OPENING_CLAIM_RATE = 0.15  # at skill 1, each day: a wolf claims Seer unprompted
LATE_CLAIM_DAY = 3


def talk(mind: Mind, seen: Seen, rng: random.Random) -> tuple[Post, ...]:
    if not (seen.phase.startswith("D") and mind.me["alive"]) or mind.skill == 0.0:
        return ()
    if mind.is_wolf:
        results = fake_results(mind, seen)
    elif mind.role == "seer":
        results = seer_results(mind, seen, rng)
    elif mind.role == "apothecary":
        contradicts = any(
            claim.results.get(name) not in (None, verdict)
            for claim in mind.record.claims.values()
            for name, verdict in mind.examined.items()
        )
        telling = WOLF in mind.examined.values() or contradicts or mind.posted is not None
        results = dict(mind.examined) if telling and rng.random() < mind.skill else None
        if results is not None:
            return _post(mind, seen, "apothecary", results)
        return ()
    elif mind.role == "mason":
        partners = [
            name for name in mind.me["teams"].get("mason", ()) if name in seen.view["defendants"]
        ]
        results = (
            {name: NOT_WOLF for name in partners}
            if partners and rng.random() < mind.skill
            else None
        )
        return _post(mind, seen, "mason", results) if results else ()
    else:
        return ()
    return _post(mind, seen, "seer", results) if results is not None else ()


def _post(mind: Mind, seen: Seen, role: str, results: dict[str, str]) -> tuple[Post, ...]:
    if results == mind.posted:
        return ()
    mind.posted = dict(results)
    return (Post(mind.name, seen.phase, "claim", {"role": role, "results": dict(results)}),)


def seer_results(mind: Mind, seen: Seen, rng: random.Random) -> dict[str, str] | None:
    if mind.posted is not None:
        return dict(mind.visions)
    living = set(mind.living)
    found_wolf = any(verdict == WOLF and name in living for name, verdict in mind.visions.items())
    on_trial = mind.name in seen.view["defendants"]
    late = mind.day >= LATE_CLAIM_DAY and bool(mind.visions)
    rivals = [name for name in mind.record.claimants("seer") if name != mind.name]
    if mind.visions and (found_wolf or on_trial or late or rivals) and rng.random() < mind.skill:
        return dict(mind.visions)
    return None


def accusers_of(mind: Mind, pack: list[str]) -> list[str]:
    """Living claimants who named one of the pack a wolf."""
    living = set(mind.living)
    return [
        name
        for name in mind.record.claim_order
        if name not in pack
        and name in living
        and any(mind.record.claims[name].results.get(wolf) == WOLF for wolf in pack)
    ]


def fake_results(mind: Mind, seen: Seen) -> dict[str, str] | None:
    """The pack's fake Seer: which wolf claims (one agreed by the pack's coin) and what."""
    coin = seen.team_coins.get(PACK_CHANNEL, 0)
    pack, living = mind.pack, mind.living
    villagers = [name for name in living if name not in pack]
    if mind.posted is not None:
        named = set(mind.posted)
        fresh = [name for name in villagers if name not in named]
        results = dict(mind.posted)
        for accuser in accusers_of(mind, pack):
            results[accuser] = WOLF
        own = mind.record.claims.get(mind.name)
        if fresh and own is not None and mind.day > own.day:
            results[fresh[int(shared_draw(coin, f"fake/{mind.day}") * len(fresh))]] = WOLF
        return results
    if any(mind.record.claims[name].role == "seer" for name in pack if name in mind.record.claims):
        return None  # a packmate already claims
    accusers = accusers_of(mind, pack)
    if accusers and shared_draw(coin, f"counter/{mind.day}") < COUNTERCLAIM_RATE * mind.skill:
        accused = [
            wolf for wolf in pack if mind.record.claims[accusers[0]].results.get(wolf) == WOLF
        ]
        claimer = (
            accused[0]
            if accused[0] in living
            else pack[int(shared_draw(coin, "claimer") * len(pack))]
        )
        if claimer != mind.name:
            return None
        return {accusers[0]: WOLF, **{wolf: NOT_WOLF for wolf in accused if wolf != mind.name}}
    if (
        not mind.record.claims
        and villagers
        and shared_draw(coin, f"open/{mind.day}") < OPENING_CLAIM_RATE * mind.skill
    ):
        claimer = pack[int(shared_draw(coin, "claimer") * len(pack))]
        if claimer != mind.name:
            return None
        return {villagers[int(shared_draw(coin, f"fake/{mind.day}") * len(villagers))]: WOLF}
    return None
