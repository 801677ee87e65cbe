"""The facility's map: the default random map and a host-supplied one (rules: Cast and setup).

Every room has exactly one feature: 1 Weapons Lab, 1 General's Room, 1 GHOST Hangar,
2 Power Generators, exactly 1 Commander's terminal and every other terminal type at least
twice. The default map has 4 of each of the 12 other types and draws the 10 remaining
rooms from Locator, History, Map data, Seer and Validity check.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any, Mapping

from engine.core import GameSetupError
from engine.infiltration.rooms import FEATURES, ROOMS, SPECIALS, TERMINALS, parse_room
from engine.infiltration.pieces import Slot

SPECIAL_COUNTS = {"WEAPONS LAB": 1, "GENERALS ROOM": 1, "HANGAR": 1, "GENERATOR": 2}
COMMON_TERMINALS = tuple(t for t in TERMINALS if t != "COMMANDER")
EXTRA_DRAW = ("LOCATOR", "HISTORY", "MAPDATA", "SEER", "VALIDITY")

# Words a host may write in a map file for each feature (explicit aliases only).
FEATURE_ALIASES = {
    **{feature: feature for feature in FEATURES},
    "WEAPONSLAB": "WEAPONS LAB",
    "WEAPONS_LAB": "WEAPONS LAB",
    "GENERALSROOM": "GENERALS ROOM",
    "GENERALS_ROOM": "GENERALS ROOM",
    "GENERAL'S ROOM": "GENERALS ROOM",
    "GHOST HANGAR": "HANGAR",
    "POWER GENERATOR": "GENERATOR",
    "MAP DATA": "MAPDATA",
    "ANONYMOUS MESSAGE": "MESSAGE",
    "VALIDITY CHECK": "VALIDITY",
    "ELECTRONIC LOCK": "LOCK",
    "COMMANDER'S": "COMMANDER",
    "COMMANDERS": "COMMANDER",
}


def default_features(rng: random.Random) -> dict[str, str]:
    """The default map (option `map=default`): features shuffled over the 64 rooms."""
    features = [kind for kind, count in SPECIAL_COUNTS.items() for _ in range(count)]
    features.append("COMMANDER")
    features += [kind for kind in COMMON_TERMINALS for _ in range(4)]
    features += [rng.choice(EXTRA_DRAW) for _ in range(len(ROOMS) - len(features))]
    rng.shuffle(features)
    return dict(zip(ROOMS, features))


def parse_map(source: Any) -> dict[str, str]:
    """A host's map: a mapping room -> feature, or text of `ROOM FEATURE` pairs (one per line,
    `=` or `:` allowed between), or 8 lines of 8 comma-separated features (A-1 … A-8 first).

    Raises GameSetupError naming the first problem.
    """
    if isinstance(source, Mapping):
        pairs = list(source.items())
    else:
        pairs = _pairs_from_text(str(source))
    features: dict[str, str] = {}
    for raw_room, raw_feature in pairs:
        room = parse_room(str(raw_room))
        if room is None:
            raise GameSetupError(f"Map: {raw_room!r} is not a room; write rooms like A-1 … H-8.")
        feature = _feature(str(raw_feature))
        if room in features:
            raise GameSetupError(f"Map: room {room} is given twice; give each room one feature.")
        features[room] = feature
    missing = [room for room in ROOMS if room not in features]
    if missing:
        raise GameSetupError(
            f"Map: room {missing[0]} has no feature; the map must give all 64 rooms one each."
        )
    validate_features(features)
    return features


def _pairs_from_text(text: str) -> list[tuple[str, str]]:
    lines = [
        line.strip()
        for line in text.strip().splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    if len(lines) == 8 and all(line.count(",") == 7 for line in lines):
        cells = [cell.strip() for line in lines for cell in line.split(",")]
        return list(zip(ROOMS, cells))
    pairs = []
    for line in lines:
        match = re.match(r"^\s*([A-Ha-h]-?[1-8])\s*[:=]?\s*(.+?)\s*$", line)
        if not match:
            raise GameSetupError(
                f"Map: cannot read the line {line!r}; write `A-1 SEER` (room, then feature)."
            )
        pairs.append((match.group(1), match.group(2)))
    return pairs


def _feature(text: str) -> str:
    word = re.sub(r"\s+", " ", text.strip().upper())
    if word in FEATURE_ALIASES:
        return FEATURE_ALIASES[word]
    known = ", ".join(FEATURES)
    raise GameSetupError(f"Map: unknown feature {text!r}; use one of: {known}.")


def validate_features(features: Mapping[str, str]) -> None:
    """The counts the rules require of any map, default or supplied."""
    counts = Counter(features.values())
    for kind, wanted in SPECIAL_COUNTS.items():
        if counts[kind] != wanted:
            raise GameSetupError(
                f"Map: it has {counts[kind]} {kind} room(s); it needs exactly {wanted}."
            )
    if counts["COMMANDER"] != 1:
        raise GameSetupError(
            f"Map: it has {counts['COMMANDER']} COMMANDER terminals; it needs exactly 1."
        )
    for kind in COMMON_TERMINALS:
        if counts[kind] < 2:
            raise GameSetupError(
                f"Map: it has {counts[kind]} {kind} terminal(s); each terminal type needs at"
                " least 2."
            )


def layout_from_features(features: Mapping[str, str]) -> dict[str, Slot]:
    """Slots by room; terminals get identities in room order."""
    layout = {}
    for index, room in enumerate(ROOMS):
        kind = features[room]
        layout[room] = Slot(kind, -1 if kind in SPECIALS else index)
    return layout
