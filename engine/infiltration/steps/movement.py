"""Players' movement (rules: Movement): electronic locks, then the hangar's outer door."""

from __future__ import annotations

from typing import Mapping, Sequence

from engine.infiltration.orders.values import EnterCode, Move, Order
from engine.infiltration.evolve import evolve
from engine.infiltration.state import GameState

MOVED, STAYED = "moved", "stayed"
LOCKED_IN, LOCKED_OUT, DOOR_SHUT = "locked-in", "locked-out", "door-shut"


def intended_moves(
    state: GameState, orders: Mapping[str, Sequence[Order]]
) -> dict[str, tuple[str, str | None]]:
    """Each living character's destination and code (no orders: stay in place)."""
    intents = {}
    for character in state.living():
        destination, code = character.room, None
        for order in orders.get(character.name, ()):
            if isinstance(order, Move):
                destination = order.room
            elif isinstance(order, EnterCode):
                code = order.digits
        intents[character.name] = (destination, code)
    return intents


def resolve_moves(
    state: GameState, orders: Mapping[str, Sequence[Order]]
) -> tuple[GameState, dict[str, str]]:
    """Moves judged together: locks first (a blocked move never reaches the door); then if
    any remaining move into the shut hangar carries the correct code, the door opens for
    good and every remaining move into the hangar succeeds. Returns each mover's outcome."""
    hangar = state.room_with("HANGAR")[0]
    outcomes: dict[str, str] = {}
    remaining: dict[str, tuple[str, str | None]] = {}
    for name, (destination, code) in intended_moves(state, orders).items():
        origin = state.characters[name].room
        if destination == origin:
            outcomes[name] = STAYED
        elif state.lock_holds(origin):
            outcomes[name] = LOCKED_IN
        elif state.lock_holds(destination):
            outcomes[name] = LOCKED_OUT
        else:
            remaining[name] = (destination, code)
    door_open = state.hangar_open or any(
        destination == hangar and code == state.code for destination, code in remaining.values()
    )
    moved = []
    for name, (destination, _code) in remaining.items():
        if destination == hangar and not door_open:
            outcomes[name] = DOOR_SHUT
        else:
            outcomes[name] = MOVED
            moved.append(evolve(state.characters[name], room=destination))
    state = evolve(state.with_characters(moved), hangar_open=door_open)
    return state, outcomes
