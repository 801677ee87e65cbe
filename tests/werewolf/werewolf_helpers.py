"""Short scenarios: a game with a chosen role per player, and phases driven by order text."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

from engine.core import PlayerSpec
from engine.werewolf import make_ruleset
from engine.werewolf.characters import Character
from engine.werewolf.teams import introduce

RULES = make_ruleset()
VAMPIRE_FILE = Path(__file__).resolve().parents[2] / "examples" / "roles" / "vampire.py"
# The rule options of the conformance suite's current variant (set by its `option_variant`
# fixture): a game's own options go on top of them.
variant: dict[str, object] = {}


def with_variant(options: dict[str, object] | None = None) -> dict[str, object]:
    """The current variant's options with `options` on top."""
    return {**variant, **(options or {})}


def vampire_rules():
    """The ruleset with the host-supplied Vampire (examples/roles/vampire.py), loaded by path."""
    spec = importlib.util.spec_from_file_location("host_roles_vampire", VAMPIRE_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return make_ruleset(extra_roles=module.ROLES)


def game(assignment: dict[str, str], rules=RULES, seed="s", **options):
    """A fresh game (phase N0) where each named player holds the role given."""
    roles = ",".join(assignment.values())
    state = rules.new_game(
        [PlayerSpec(name) for name in assignment], seed, with_variant({"roles": roles, **options})
    )
    characters = tuple(
        Character(name=name, role=role, role_state=rules.table.by_name[role].initial_state)
        for name, role in assignment.items()
    )
    return replace(state, characters=introduce(characters, rules.table))


def step(state, orders: dict[str, str] | None = None, rules=RULES):
    """Resolve the open phase with these players' order text; returns the Resolution."""
    parsed = {
        player: rules.parse_orders(state, player, text.splitlines())
        for player, text in (orders or {}).items()
    }
    return rules.resolve(state, parsed)


def to_night(state, n0: dict[str, str] | None = None, rules=RULES):
    """From N0 straight to N1 (no nominations on day 1)."""
    state = step(state, n0, rules).state
    assert state.phase_id == "D1-nominate"
    state = step(state, {}, rules).state
    assert state.phase_id == "N1"
    return state


def night(
    state, orders: dict[str, str] | None = None, witch: dict[str, str] | None = None, rules=RULES
):
    """Resolve Nn (and Nn-witch when the setup has a Witch); returns the dawn Resolution."""
    resolution = step(state, orders, rules)
    if resolution.state.phase_id.endswith("-witch"):
        resolution = step(resolution.state, witch, rules)
    return resolution


def alive(state, name: str) -> bool:
    return state.character(name).alive


def kinds(events) -> list[str]:
    return [event.kind for event in events]


def private_kinds(resolution, player: str) -> list[str]:
    return [event.kind for event in resolution.private.get(player, ())]


def private_event(resolution, player: str, kind: str):
    return next(event for event in resolution.private.get(player, ()) if event.kind == kind)


def public_event(resolution, kind: str):
    return next(event for event in resolution.public if event.kind == kind)
