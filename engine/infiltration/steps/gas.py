"""Gas, step 4 of the resolution (rules: Resolution §4): everyone in a gassed room dies,
guards too."""

from __future__ import annotations

from engine.core import Event
from engine.infiltration.state import GameState


def release_gas(
    state: GameState, rooms: tuple[str, ...]
) -> tuple[GameState, list[str], dict[str, list[Event]]]:
    """Kill everyone in `rooms`; returns the new state, the dead characters (guards
    included, as `guard X`) and what each victim saw."""
    dead: list[str] = []
    reports: dict[str, list[Event]] = {}
    for room in rooms:
        victims = sorted(c.name for c in state.in_room(room))
        guards = [g.name for g in sorted(state.guards_in(room), key=lambda g: g.floor)]
        event = Event("gassed", {"turn": state.turn, "room": room, "dead": victims + guards})
        for name in victims:
            reports.setdefault(name, []).append(event)
        for name in victims + guards:
            state = state.killed(name, "gas")
        dead += victims + guards
    return state, dead, reports
