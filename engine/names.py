"""Which names a player or NPC may take (docs/design.md: Command line, the roster rules).

A name must never be mistaken for a room, a floor or a grammar word in an order line.
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

from engine.infiltration.rooms import FLOORS, parse_room

# Every keyword of either ruleset's grammar (orders, validity statements, mail commands).
RESERVED_WORDS = frozenset(word.upper() for word in """
    begin end orders token help form status approve
    class warrior hacker sneaker renegade engineer move stay code use hack destroy restore
    repair vote no lynch reds left attack guard seer psychic locator superlocator history
    mapdata message gas validity commander lock switch
    is in was on turn alive dead has stinger visited attacked used terminal hacked destroyed
    hangar door open and or not weapons lab generals general room generator
    love nominate seduce strike rouse visit protect kill silence bite see save poison drain
""".split())

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,19}$")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's or NPC's name, or None when it can."""
    if not _NAME.match(name):
        return (f"{name!r} is not a valid name: use 1-20 letters, digits, '_' or '-', "
                "starting with a letter")
    if parse_room(name) is not None:
        return f"{name!r} reads as a room; pick a name that is not a room"
    if name.upper() in FLOORS:
        return f"{name!r} is a floor letter; pick a longer name"
    if name.upper() in RESERVED_WORDS:
        return f"{name!r} is an order keyword; pick another name"
    return None


def name_clash(names: Iterable[str]) -> str | None:
    """Why a list of names cannot share one game (two equal ignoring case), or None."""
    seen: dict[str, str] = {}
    for name in names:
        key = name.lower()
        if key in seen:
            return f"the name {name!r} is used twice (names must differ ignoring case)"
        seen[key] = name
    return None


def roster_problems(names: Sequence[str]) -> list[str]:
    """Every reason why `names` cannot be one game's players and NPCs (empty: they can)."""
    problems = [problem for problem in map(name_problem, names) if problem]
    clash = name_clash(names)
    return problems + ([clash] if clash else [])
