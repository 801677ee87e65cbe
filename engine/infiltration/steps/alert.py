"""Alert (rules: Alert): evaluated after arrival, for this turn's decision phase."""

from __future__ import annotations

from engine.infiltration.state import UNSEEN_BY_GUARDS, GameState


def guard_sees_character(state: GameState, room: str) -> bool:
    """1. A living guard shares a room with a living character who is neither Sneaker nor
    Renegade."""
    return bool(state.guards_in(room)) and any(
        c.role not in UNSEEN_BY_GUARDS for c in state.in_room(room)
    )


def guards_meet(state: GameState, room: str) -> bool:
    """2. Two living guards share a room."""
    return len(state.guards_in(room)) >= 2


def guard_finds_corpse(state: GameState, room: str) -> bool:
    """3. A living guard shares a room with a guard corpse."""
    return bool(state.guards_in(room)) and bool(state.corpses_in(room)[1])


def alert_floors(state: GameState) -> tuple[str, ...]:
    """The floors on which some Alert condition holds (empty: no Alert anywhere).

    With the `facility` scope any of them puts the whole facility under Alert; with `floor`
    only these floors are (see `GameState.alert_in`).
    """
    rooms = {guard.room for guard in state.living_guards()}
    floors = {
        room[0]
        for room in rooms
        if guard_sees_character(state, room)
        or guards_meet(state, room)
        or guard_finds_corpse(state, room)
    }
    return tuple(sorted(floors))
