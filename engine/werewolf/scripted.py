"""Scripted players (for the demo and `pbp simulate`): random within the rules, seeded by
(seed, phase, player), deciding only from their own view and their own order form."""
from __future__ import annotations

from typing import Any

from engine.core import OrderSpec, phase_rng
from engine.werewolf.model import WOLVES

# How keen a scripted player is to spend a once-per-game or optional power tonight.
OPTIONAL_POWER_CHANCE = {"SAVE": 0.6, "POISON": 0.25, "ROUSE": 0.3, "SEDUCE": 0.4, "SILENCE": 0.7}


def seen_wolves(view: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The Seer's memory, read from her own inbox: who she saw, and who was a wolf."""
    seen, wolves = set(), set()
    for event in view["me"]["inbox"]:
        if event["kind"] == "vision":
            seen.add(event["data"]["target"])
            if event["data"]["verdict"] == "wolf":
                wolves.add(event["data"]["target"])
    return seen, wolves


def choose(spec: OrderSpec, view: dict[str, Any], seed: Any, phase_id: str, player: str) -> str | None:
    rng = phase_rng(seed, phase_id, f"script/{player}/{spec.keyword}")
    teams = view["me"]["teams"]
    friends = set(teams.get(WOLVES, ())) | {view["me"]["name"]} if view["me"]["faction"] == WOLVES else set()
    choices = list(spec.choices)
    if spec.keyword in OPTIONAL_POWER_CHANCE and rng.random() > OPTIONAL_POWER_CHANCE[spec.keyword]:
        return None
    if not choices:
        return spec.keyword if spec.syntax == spec.keyword else None
    if spec.keyword == "KILL":  # the pack agrees: one shared draw over the same list
        return f"KILL {phase_rng(seed, phase_id, 'script/wolves').choice(sorted(choices))}"
    if spec.keyword == "BITE":
        return f"BITE {phase_rng(seed, phase_id, 'script/weregerbils').choice(sorted(choices))}"
    if spec.keyword == "SEE":
        seen, _ = seen_wolves(view)
        fresh = [c for c in choices if c not in seen]
        return f"SEE {rng.choice(fresh or choices)}"
    if spec.keyword in ("NOMINATE", "VOTE"):
        _, wolves = seen_wolves(view)
        suspects = [c for c in choices if c in wolves]
        if suspects:
            return f"{spec.keyword} {rng.choice(suspects)}"
        if friends:
            outsiders = [c for c in choices if c not in friends]
            choices = outsiders or choices
        return f"{spec.keyword} {rng.choice(choices)}"
    return f"{spec.keyword} {rng.choice(choices)}"


def scripted_lines(view: dict[str, Any], grammar: tuple[OrderSpec, ...], seed: Any, phase_id: str, player: str) -> str:
    lines = []
    for spec in grammar:
        line = choose(spec, view, seed, phase_id, player)
        if line:
            lines.append(line)
    return "\n".join(lines)

