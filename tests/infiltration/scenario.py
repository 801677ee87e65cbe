"""Small builders for Infiltration scenarios: a state with characters placed where a test
wants them, orders given as the text players send, and quick lookups in what came back."""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

import engine
from engine.core import Event, Resolution, resolve_options
from engine.infiltration import OPTIONS
from engine.infiltration.steps.arrival import shown_condition
from engine.infiltration.facility import COMMON_TERMINALS, layout_from_features, validate_features
from engine.infiltration.rooms import FLOORS, ROOMS
from engine.infiltration.state import GameState, Step
from engine.infiltration.pieces import Character, Guard

RULES = engine.ruleset("infiltration")
# The rule options of the conformance suite's current variant (set by its `option_variant`
# fixture): a scenario's own options go on top of them.
variant: dict[str, object] = {}


def with_variant(options: Mapping[str, object] | None = None) -> dict[str, object]:
    """The current variant's options with `options` on top."""
    return {**variant, **(options or {})}


# A fixed map: specials on floor H, then every other terminal type in turn from A-1.
SPECIAL_ROOMS = {
    "H-1": "WEAPONS LAB",
    "H-2": "GENERALS ROOM",
    "H-3": "HANGAR",
    "H-4": "GENERATOR",
    "H-5": "GENERATOR",
    "H-6": "COMMANDER",
}


def base_features() -> dict[str, str]:
    features = dict(SPECIAL_ROOMS)
    others = [room for room in ROOMS if room not in features]
    for index, room in enumerate(others):
        features[room] = COMMON_TERMINALS[index % len(COMMON_TERMINALS)]
    validate_features(features)
    return features


BASE = base_features()


def room_with(kind: str) -> str:
    """A room of the base map holding `kind`, kept clear of where scenarios put people
    (floors A, C, D, G, rooms ending in 3) and guards (rooms ending in 8)."""
    return next(
        (room for room in ROOMS if BASE[room] == kind and room[0] in "BEF" and room[2] not in "38"),
        next(room for room in ROOMS if BASE[room] == kind),
    )


def person(
    name: str, room: str, team: str = "green", role: str = "warrior", npc: bool = False, **extra
) -> Character:
    return Character(name=name, team=team, role=role, npc=npc, room=room, **extra)


def make_state(
    *characters: Character,
    guards: Mapping[str, str] | None = None,
    features: Mapping[str, str] | None = None,
    step: str = "decision",
    turn: int = 1,
    options: Mapping | None = None,
    code: str = "1234",
    hacked: Iterable[str] = (),
    destroyed: Iterable[str] = (),
    plans: Mapping[str, str] | None = None,
    dead_guards: Iterable[str] = (),
    alert_floors: tuple = (),
    locks: Mapping[str, int] | None = None,
    hangar_open: bool = False,
    initial_reds: int | None = None,
) -> GameState:
    """A state in `step` of `turn`. Guards default to room <floor>-8 planning <floor>-7;
    `guards` moves some (floor -> room). Characters see their room's feature as on arrival."""
    layout = layout_from_features({**BASE, **(features or {})})
    for room in hacked:
        layout[room] = replace(layout[room], hacked=True)
    for room in destroyed:
        layout[room] = replace(layout[room], destroyed=True)
    guard_rooms = {floor: f"{floor}-8" for floor in FLOORS}
    guard_rooms.update(guards or {})
    guard_plans = {floor: f"{floor}-7" for floor in FLOORS}
    guard_plans.update(plans or {})
    state = GameState(
        seed="scenario",
        options=resolve_options(OPTIONS, with_variant(options)),
        turn=turn,
        step=Step(step),
        characters={},
        code=code,
        guards={
            f: Guard(f, guard_rooms[f], guard_plans[f], alive=f not in dead_guards) for f in FLOORS
        },
        layout=layout,
        initial_reds=initial_reds
        if initial_reds is not None
        else sum(1 for c in characters if c.team == "red" and not c.npc),
        alert_floors=tuple(alert_floors),
        locks=dict(locks or {}),
        hangar_open=hangar_open,
    )
    seen = []
    for character in sorted(characters, key=lambda c: c.name):
        state = state.with_character(character)
        seen.append(
            replace(
                character,
                seen_feature=layout[character.room].kind,
                seen_condition=shown_condition(state, character),
            )
        )
    return state.with_characters(seen)


def parse(state: GameState, name: str, *lines: str) -> tuple:
    return RULES.parse_orders(state, name, list(lines))


def resolve(
    state: GameState, orders: Mapping[str, str | Iterable[str]] | None = None
) -> Resolution:
    """Resolve the open phase; each order is the text a player sends (one line or several)."""
    typed = {}
    for name, text in (orders or {}).items():
        lines = text.splitlines() if isinstance(text, str) else list(text)
        typed[name] = parse(state, name, *lines)
    return RULES.resolve(state, typed)


def private(resolution: Resolution, name: str, kind: str) -> list[dict]:
    return [dict(e.data) for e in resolution.private.get(name, ()) if e.kind == kind]


def public(resolution: Resolution, kind: str) -> list[dict]:
    return [dict(e.data) for e in resolution.public if e.kind == kind]


def terminal_report(resolution: Resolution, name: str) -> dict:
    reports = private(resolution, name, "terminal")
    assert len(reports) == 1, reports
    report = reports[0]
    report.pop("turn")
    return report


def events_of(resolution: Resolution) -> list[Event]:
    events = list(resolution.public)
    for evs in resolution.private.values():
        events.extend(evs)
    return events


def bystanders(count: int = 4) -> list[Character]:
    """Green Sneakers far from the action (G-1 …), so a scenario does not end for lack of
    Greens; as Sneakers, a guard wandering by neither attacks them nor raises Alert."""
    return [person(f"Extra{i}", f"G-{i}", role="sneaker") for i in range(1, count + 1)]
