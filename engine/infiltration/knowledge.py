"""The facility as a reader knows it (rules: "What a report shows"): the facts a map draws.

A player's map holds only what their own arrival reports told them: the rooms they arrived
in (with the feature they found there at their latest visit), the guards they found there
(where and on which turn), the corpses lying in rooms they arrived in after the death, and,
for the room they stand in now, who is with them, its condition and its lock as their
latest arrival report showed them. The host's map holds everything. Both have one shape:

    {"here": room or None, "rooms": {room: {"feature", "condition", "turn"}},
     "people": {room: [names]}, "corpses": {room: [names]},
     "guards": {room: [[guard, turn], …]}, "locks": [rooms]}

Rooms are keys in room order; every list is sorted, so equal knowledge gives equal maps.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Iterable

from engine.infiltration.steps.arrival import occupants
from engine.infiltration.rooms import ROOMS, room_order
from engine.infiltration.state import GameState, Step
from engine.infiltration.pieces import guard_name

_BY_TURN_THEN_GUARD = itemgetter(1, 0)  # of a [guard, turn] entry


def _ordered(by_room: dict[str, Any]) -> dict[str, Any]:
    if len(by_room) < 2:  # most maps: no corpse or one room of them
        return by_room
    return {room: by_room[room] for room in sorted(by_room, key=room_order)}


def player_map(
    state: GameState, name: str, seen_now: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What `name` knows of the facility (see the module docstring). `seen_now`: who is in
    their room as `occupants` shows it, when the caller has it already."""
    me = state.characters[name]
    if name not in state.histories:
        state.histories[name] = _history(state, name)
    visits, visit_order, guards = state.histories[name]
    corpses: dict[str, set[str]] = {}
    for room, dead in state.dead_by_room.items():
        # Characters who died in a room before my latest arrival there.
        if room in visits:
            found = {
                character.name for character in dead if visits[room][0] > (character.died_turn or 0)
            }
            if found:
                corpses[room] = found
    people: dict[str, list[str]] = {}
    locks: list[str] = []
    here = me.room if me.alive else None
    if here is None or here in visits:
        rooms = {
            room: {"feature": visits[room][1], "condition": "", "turn": visits[room][0]}
            for room in visit_order
        }
    else:
        known = dict(visits)
        known[here] = (state.turn, me.seen_feature)
        rooms = {
            room: {"feature": known[room][1], "condition": "", "turn": known[room][0]}
            for room in sorted(known, key=room_order)
        }
    if here is not None:
        rooms[here]["condition"] = me.seen_condition
        seen_now = seen_now or occupants(state, here, exclude=name)
        living = [who for who in seen_now["present"] if not who.startswith("guard ")]
        if living:
            people[here] = living
        corpses.setdefault(here, set()).update(seen_now["corpses"])
        if state.step == Step.DECISION and state.lock_holds(here):
            locks.append(here)
    return {
        "here": here,
        "rooms": rooms,
        "people": people,
        "corpses": _ordered({room: _names(names) for room, names in corpses.items() if names}),
        "guards": {room: [list(entry) for entry in seen] for room, seen in guards.items()},
        "locks": locks,
    }


def _history(
    state: GameState, name: str
) -> tuple[dict[str, tuple[int, str]], list[str], dict[str, Any]]:
    """What `name`'s arrivals told them, made once per presence log: the rooms they arrived
    in (room -> (latest turn, feature seen)), those rooms in room order, and the guards they
    found there (room in room order -> [guard, turn] sorted by turn, then guard)."""
    visits: dict[str, tuple[int, str]] = {}
    turns_in: dict[int, str] = {}  # turn -> room arrived in
    for turn, room, feature in state.presence_of.get(name, ()):
        visits[room] = (turn, feature)
        turns_in[turn] = room
    guards: dict[str, list[list[Any]]] = {}
    guards_present = state.guards_present
    for turn, room in turns_in.items():
        for guard in guards_present.get((turn, room), ()):
            guards.setdefault(room, []).append([guard, turn])
    ordered = _ordered(
        {room: sorted(seen, key=_BY_TURN_THEN_GUARD) for room, seen in guards.items()}
    )
    return visits, sorted(visits, key=room_order), ordered


def host_map(state: GameState) -> dict[str, Any]:
    """The whole facility as it stands: every feature and condition, every living character,
    every corpse, every living guard (with the current turn) and every lock that holds."""
    people: dict[str, list[str]] = {}
    corpses: dict[str, list[str]] = {}
    for character in state.characters.values():
        target = people if character.alive else corpses
        target.setdefault(character.room, []).append(character.name)
    guards: dict[str, list[list[Any]]] = {}
    for floor, guard in sorted(state.guards.items()):
        if guard.alive:
            guards.setdefault(guard.room, []).append([guard_name(floor), state.turn])
        else:
            corpses.setdefault(guard.room, []).append(guard_name(floor))
    return {
        "here": None,
        "rooms": {
            room: {
                "feature": state.layout[room].kind,
                "condition": state.layout[room].condition,
                "turn": state.turn,
            }
            for room in ROOMS
        },
        "people": _ordered({room: sorted(names) for room, names in people.items()}),
        "corpses": _ordered({room: _names(names) for room, names in corpses.items()}),
        "guards": _ordered(guards),
        "locks": sorted((room for room in state.locks if state.lock_holds(room)), key=room_order),
    }


def _names(names: Iterable[str]) -> list[str]:
    """Characters first (alphabetical), then guards by floor, as arrival reports list them."""
    return sorted(names, key=lambda who: (who.startswith("guard "), who))
