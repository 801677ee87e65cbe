"""The facility drawn from a view's `map` (docs/design.md: The host's view), beside the
rules it pictures; the card offers it to the shell as the board's picture.

`text_map(view)` is the 8×8 grid of report mails and of the host's display;
`engine.infiltration.map_svg.svg_map(view)` is the same picture as SVG (the `map.svg`
attachment of reports), from the grid, title and notes made here. Both read only the view
(a player's knows what that player was told; the host's holds everything), never a state.
Rows are floors A…H, columns rooms 1…8.
"""

from __future__ import annotations

import textwrap
from typing import Any, Callable, Mapping

from engine.infiltration.rooms import FLOORS, ROOMS

NUMBERS = range(1, 9)
TEXT_WIDTH = 72  # a mail line

# Two letters per feature, and the words a legend gives them.
ABBREVIATIONS = {
    "SEER": ("SE", "Seer"),
    "PSYCHIC": ("PS", "Psychic"),
    "LOCATOR": ("LO", "Locator"),
    "HISTORY": ("HI", "History"),
    "MAPDATA": ("MD", "Map data"),
    "SUPERLOCATOR": ("SL", "Superlocator"),
    "MESSAGE": ("MS", "Anonymous message"),
    "GAS": ("GA", "Gas"),
    "GUARD": ("GU", "Guard terminal"),
    "VALIDITY": ("VA", "Validity check"),
    "COMMANDER": ("CO", "Commander's terminal"),
    "LOCK": ("LK", "Electronic lock"),
    "SWITCH": ("SW", "Switch"),
    "WEAPONS LAB": ("WL", "Weapons Lab"),
    "GENERALS ROOM": ("GR", "General's Room"),
    "HANGAR": ("HG", "GHOST Hangar"),
    "GENERATOR": ("PG", "Power Generator"),
}
CONDITION_MARKS = {"hacked": "h", "destroyed": "x"}
MARKS = (
    ("@", "your room"),
    ("*", "living characters"),
    ("+", "corpse"),
    ("g", "guard"),
    ("#", "electronic lock"),
    ("h", "hacked"),
    ("x", "destroyed"),
    ("..", "not seen"),
)
CELL = 6
# The text map's sentences, each given to the caller's `word` before its values are put
# in, so that a translation catalog can word them (`BOARD_WORDS` lists every one).
TITLE = "Facility map, turn %(turn)s: as %(name)s knows it"
HOST_TITLE = "Facility map, turn %(turn)s: everything (host)"
FEATURES, NO_FEATURES, MARKS_LINE = (
    "Features: %(features)s.",
    "Features: none seen yet.",
    "Marks: %(marks)s.",
)
PEOPLE, CORPSES, GUARDS, LOCKED = (
    "People: %(rooms)s.",
    "Corpses: %(rooms)s.",
    "Guards: %(rooms)s.",
    "Locked: %(rooms)s.",
)
SEEN_ON = "%(guard)s (turn %(turn)s)"
BOARD_WORDS = (
    TITLE,
    HOST_TITLE,
    FEATURES,
    NO_FEATURES,
    MARKS_LINE,
    PEOPLE,
    CORPSES,
    GUARDS,
    LOCKED,
    SEEN_ON,
    *(words for _, words in ABBREVIATIONS.values()),
    *(words for _, words in MARKS),
)
Word = Callable[[str], str]


def same_words(text: str) -> str:
    return text


def _abbreviation(feature: str) -> str:
    return ABBREVIATIONS.get(feature, (feature[:2] or "..", feature))[0]


def _cell_marks(facts: Mapping[str, Any], room: str) -> tuple[str, str, str]:
    """(position mark, feature letters, marks) of one room."""
    known = facts["rooms"].get(room)
    position = "@" if room == facts["here"] else ("*" if room in facts["people"] else " ")
    feature = _abbreviation(known["feature"]) if known else ".."
    marks = CONDITION_MARKS.get(known["condition"], "") if known else ""
    marks += ("+" if room in facts["corpses"] else "") + ("g" if room in facts["guards"] else "")
    marks += "#" if room in facts["locks"] else ""
    return position, feature, marks


def map_title(view: Mapping[str, Any], word: Word = same_words) -> str:
    me = view.get("me")
    return (
        word(TITLE) % {"turn": view["turn"], "name": me["name"]}
        if me
        else word(HOST_TITLE) % {"turn": view["turn"]}
    )


def _detail_lines(facts: Mapping[str, Any], turn: int, word: Word = same_words) -> list[str]:
    def listing(by_room: Mapping[str, list[str]]) -> str:
        return "; ".join(f"{room} {', '.join(names)}" for room, names in by_room.items())

    lines = []
    if facts["people"]:
        lines.append(word(PEOPLE) % {"rooms": listing(facts["people"])})
    if facts["corpses"]:
        lines.append(word(CORPSES) % {"rooms": listing(facts["corpses"])})
    if facts["guards"]:
        # A guard seen on an earlier turn says when; one seen now needs no date.
        seen = {
            room: [
                guard if seen_turn == turn else word(SEEN_ON) % {"guard": guard, "turn": seen_turn}
                for guard, seen_turn in entries
            ]
            for room, entries in facts["guards"].items()
        }
        lines.append(word(GUARDS) % {"rooms": listing(seen)})
    if facts["locks"]:
        lines.append(word(LOCKED) % {"rooms": ", ".join(facts["locks"])})
    return lines


def _legend(facts: Mapping[str, Any], grid_marks: str, word: Word = same_words) -> list[str]:
    """The abbreviations and marks that appear on this map, and only those."""
    shown = sorted(
        {facts["rooms"][room]["feature"] for room in facts["rooms"]},
        key=lambda feature: _abbreviation(feature),
    )
    features = ", ".join(
        f"{_abbreviation(f)} {word(ABBREVIATIONS[f][1]) if f in ABBREVIATIONS else f}"
        for f in shown
    )
    marks = ", ".join(f"{mark} {word(words)}" for mark, words in MARKS if mark in grid_marks)
    return [
        word(FEATURES) % {"features": features} if features else word(NO_FEATURES),
        word(MARKS_LINE) % {"marks": marks},
    ]


def map_grid(facts: Mapping[str, Any]) -> dict[str, tuple[str, str, str]]:
    """Every room's marks (`_cell_marks`), made once per picture."""
    return {room: _cell_marks(facts, room) for room in ROOMS}


def map_notes(
    view: Mapping[str, Any], grid: dict[str, tuple[str, str, str]], word: Word = same_words
) -> list[str]:
    """The legend and the details the grid abbreviates, one line each (wrapped by the caller)."""
    all_marks = "".join("".join(cell) for cell in grid.values())
    return _legend(view["map"], all_marks, word) + _detail_lines(view["map"], view["turn"], word)


def text_map(view: Mapping[str, Any], word: Word = same_words) -> str:
    """The 8×8 grid with its legend and the details it abbreviates, as plain text; `word`
    words each of its sentences (`BOARD_WORDS`) in the reader's language."""
    grid = map_grid(view["map"])
    header = "    " + "".join(f"{number:<{CELL + 1}}" for number in NUMBERS)
    rows = [map_title(view, word), header.rstrip()]
    for floor in FLOORS:
        cells = ["".join(grid[f"{floor}-{number}"]).ljust(CELL) for number in NUMBERS]
        rows.append(f"{floor}  " + " ".join(cells).rstrip())
    notes = [
        part
        for line in map_notes(view, grid, word)
        for part in textwrap.wrap(line, TEXT_WIDTH, subsequent_indent="  ")
    ]
    return "\n".join(rows + notes) + "\n"


def board_text(view: Mapping[str, Any], word: Word = same_words) -> str:
    """The card's `board_text`: the text map of a view that holds a map, else ""."""
    return text_map(view, word) if "map" in view else ""
