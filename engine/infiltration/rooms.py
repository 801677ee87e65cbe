"""Rooms, floors and features of the facility (rules: Cast and setup)."""

from __future__ import annotations

import re

FLOORS = tuple("ABCDEFGH")
ROOMS = tuple(f"{floor}-{number}" for floor in FLOORS for number in range(1, 9))

# The thirteen terminal types, by the word the grammar uses for each.
TERMINALS = (
    "SEER",
    "PSYCHIC",
    "LOCATOR",
    "HISTORY",
    "MAPDATA",
    "SUPERLOCATOR",
    "MESSAGE",
    "GAS",
    "GUARD",
    "VALIDITY",
    "COMMANDER",
    "LOCK",
    "SWITCH",
)
# Special rooms, by the grammar's words.
SPECIALS = ("WEAPONS LAB", "GENERALS ROOM", "HANGAR", "GENERATOR")
FEATURES = TERMINALS + SPECIALS

_ROOM = re.compile(r"^([A-Ha-h])-?([1-8])$")


def parse_room(text: str) -> str | None:
    """The canonical room (`D-4`) for `D-4`, `d4` or `D4`; None if it is not a room."""
    match = _ROOM.match(text.strip())
    if not match:
        return None
    return f"{match.group(1).upper()}-{match.group(2)}"


_ON_FLOOR = {floor: tuple(room for room in ROOMS if room[0] == floor) for floor in FLOORS}


def rooms_on_floor(floor: str) -> tuple[str, ...]:
    return _ON_FLOOR[floor]


# Sort key: A-1 first, then A-2 … H-8. The dict's own lookup, so that sorting rooms (every
# map and report does) calls no Python function per room.
room_order = {room: rank for rank, room in enumerate(ROOMS)}.__getitem__
