"""Arrival (rules: Arrival): what each character finds in the room they end the movement in.

Specials trigger here: the Weapons Lab hands every living player arriving a Stinger, the
General's Room teaches the code. The report shows the feature as the character sees it:
a destroyed terminal shows as destroyed; a hacked one shows as normal except to Hackers
and Engineers.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core import Event
from engine.infiltration.rooms import room_order
from engine.infiltration.evolve import evolve
from engine.infiltration.state import RED, TECHNICIANS, GameState
from engine.infiltration.pieces import DESTROYED, HACKED, SOUND, Character


def shown_condition(state: GameState, character: Character) -> str:
    slot = state.layout[character.room]
    if slot.destroyed:
        return DESTROYED
    if slot.hacked and character.role in TECHNICIANS:
        return HACKED
    return SOUND


def arrive(state: GameState) -> GameState:
    """Specials trigger, the presence log grows and each character notes what they see."""
    updated = []
    presence = list(state.presence)
    for character in state.living():
        slot = state.layout[character.room]
        changes: dict[str, Any] = {
            "seen_feature": slot.kind,
            "seen_condition": shown_condition(state, character),
        }
        if slot.kind == "WEAPONS LAB":
            changes["stinger"] = True
        if slot.kind == "GENERALS ROOM":
            changes["knows_code"] = True
        updated.append(evolve(character, **changes))
        presence.append((state.turn, character.room, character.name, slot.kind))
    for guard in state.living_guards():
        presence.append((state.turn, guard.room, guard.name, state.layout[guard.room].kind))
    return evolve(state.with_characters(updated), presence=tuple(presence))


def occupants(state: GameState, room: str, exclude: str = "") -> dict[str, Any]:
    """Who is in a room as a person there sees it: the living and the corpses."""
    living, guards, corpses = state.sight(room)
    return {
        "present": [name for name in living if name != exclude] + list(guards),
        "corpses": list(corpses),
    }


def arrival_report(
    state: GameState, character: Character, movement: str, destination: str | None
) -> Event:
    """The private arrival report (rules: Arrival). `movement` is how their move went
    (`start`, `moved`, `stayed`, `locked-in`, `locked-out`, `door-shut`)."""
    slot = state.layout[character.room]
    data = {
        "turn": state.turn,
        "room": character.room,
        "feature": slot.kind,
        "condition": character.seen_condition,
        **occupants(state, character.room, exclude=character.name),
        "locked": state.lock_holds(character.room),
        "alert": state.alert_in(character.room),
        "movement": movement,
        "destination": destination,
        "stinger": slot.kind == "WEAPONS LAB",
        "code": state.code if slot.kind == "GENERALS ROOM" else None,
    }
    return Event("arrival", data)


def arrival_reports(
    state: GameState, outcomes: Mapping[str, str], intents: Mapping[str, str | None]
) -> dict[str, list[Event]]:
    return {
        c.name: [arrival_report(state, c, outcomes.get(c.name, "start"), intents.get(c.name))]
        for c in state.living()
    }


def red_occupancy(state: GameState) -> dict[str, int]:
    """Rooms holding living characters and how many (guards and corpses not counted)."""
    counts: dict[str, int] = {}
    for character in state.living():
        counts[character.room] = counts.get(character.room, 0) + 1
    return {room: counts[room] for room in sorted(counts, key=room_order)}


def red_reports(state: GameState) -> tuple[GameState, dict[str, list[Event]]]:
    """When a movement phase opens, every living Red character is told the occupied rooms
    (a Red NPC's copy goes to the host, who plays it)."""
    report = red_occupancy(state)
    state = evolve(state, red_report=report)
    return state, {
        c.name: [Event("red_occupancy", {"turn": state.turn, "rooms": report})]
        for c in state.living()
        if c.team == RED
    }


def fellow_reds(state: GameState, name: str) -> dict[str, Any]:
    """A Red's fellow Reds, players and NPCs alike (the NPCs also listed apart, so they can
    be marked as NPCs); nothing for anyone else. Dead Reds stay on the list: the list never
    shrinks, so it tells nothing a public death does not."""
    if state.characters[name].team != RED:
        return {"teammates": [], "teammate_npcs": []}
    fellows = [red for red in state.red_names if red != name]
    return {
        "teammates": fellows,
        "teammate_npcs": [red for red in fellows if state.characters[red].npc],
    }
