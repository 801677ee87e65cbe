"""The facility map as SVG (docs/design.md: The host's view): `svg_map(view)` draws the
same picture as `engine.infiltration.drawing.text_map`, the `map.svg` attachment of
reports, from the view alone. Every text it carries is escaped: names are a player's input.
"""

from __future__ import annotations

import functools
import textwrap
from typing import Any, Mapping

from engine.infiltration.drawing import NUMBERS, Word, map_grid, map_notes, map_title, same_words
from engine.infiltration.rooms import FLOORS

SIZE = 64  # a room's square, in SVG units
MARGIN = 28  # left of the grid: the floor letters
TOP = 40  # above the grid: the title and the room numbers
LINE_CHARS = 90  # legend lines are wrapped to fit the picture's width
LINE_HEIGHT = 15
FILLS = {"here": "#ffe08a", "people": "#cfe8ff", "known": "#f4f4f4", "unknown": "#bdbdbd"}


@functools.lru_cache(
    maxsize=8192
)  # most of a map's texts (room names, numbers, features) recur in every report
def _text(x: float, y: float, words: str, **attributes: str) -> str:
    # xml.sax loads urllib.request and ssl with it: only a drawing pays that, not every
    # command that loads the ruleset (docs/design.md: Start-up).
    from xml.sax.saxutils import escape, quoteattr

    extra = "".join(
        f" {name.rstrip('_').replace('_', '-')}={quoteattr(value)}"
        for name, value in attributes.items()
    )
    return f'<text x="{x:g}" y="{y:g}"{extra}>{escape(words)}</text>'


def svg_map(view: Mapping[str, Any], word: Word = same_words) -> str:
    """The same picture as `text_map`, as a standalone SVG document, its words worded by
    `word` as `text_map`'s are."""
    facts = view["map"]
    grid = map_grid(facts)
    width = MARGIN + 8 * SIZE + 8
    notes = map_notes(view, grid, word)
    lines = [part for line in notes for part in textwrap.wrap(line, LINE_CHARS)]
    height = TOP + 8 * SIZE + 24 + LINE_HEIGHT * len(lines)
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">'
        ),
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        _text(8, 16, map_title(view, word), font_weight="bold", font_size="13"),
    ]
    for column, number in enumerate(NUMBERS):
        parts.append(
            _text(MARGIN + column * SIZE + SIZE / 2, TOP - 4, str(number), text_anchor="middle")
        )
    for row, floor in enumerate(FLOORS):
        parts.append(_text(8, TOP + row * SIZE + SIZE / 2 + 4, floor, font_weight="bold"))
        for column, number in enumerate(NUMBERS):
            room = f"{floor}-{number}"
            names = tuple(facts["people"].get(room, []) + facts["corpses"].get(room, []))
            parts.append(
                _room(
                    room,
                    MARGIN + column * SIZE,
                    TOP + row * SIZE,
                    grid[room],
                    room in facts["rooms"],
                    names,
                )
            )
    top = TOP + 8 * SIZE + 16
    for index, line in enumerate(lines):
        parts.append(_text(8, top + index * LINE_HEIGHT, line, class_="legend"))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


@functools.lru_cache(maxsize=8192)  # most rooms look the same in most players' maps
def _room(
    room: str, x: int, y: int, cell: tuple[str, str, str], known: bool, names: tuple[str, ...]
) -> str:
    position, feature, marks = cell
    parts = [
        f'<g class="room" data-room="{room}">',
        (
            f'<rect x="{x + 1}" y="{y + 1}" width="{SIZE - 2}" height="{SIZE - 2}"'
            f' fill="{_fill(position, known)}" stroke="#333333"/>'
        ),
        _text(x + 4, y + 13, room, font_size="9", fill="#555555"),
        _text(
            x + SIZE / 2,
            y + SIZE / 2 + 5,
            feature,
            text_anchor="middle",
            font_size="16",
            font_weight="bold",
        ),
        *_room_marks(x, y, position, marks),
    ]
    if names:
        from xml.sax.saxutils import escape  # see _text

        parts.append(f"<title>{escape(room + ': ' + ', '.join(names))}</title>")
    parts.append("</g>")
    return "".join(parts)


def _fill(position: str, known: bool) -> str:
    """A room's colour: where the reader is, where people are, known, or unknown."""
    if position == "@":
        return FILLS["here"]
    if position == "*":
        return FILLS["people"]
    return FILLS["known"] if known else FILLS["unknown"]


def _room_marks(x: int, y: int, position: str, marks: str) -> list[str]:
    """The position mark in a room's top right corner and its marks at its foot, if any."""
    parts = []
    if position.strip():
        parts.append(
            _text(
                x + SIZE - 5, y + 13, position, text_anchor="end", class_="position", font_size="12"
            )
        )
    if marks:
        parts.append(
            _text(
                x + SIZE / 2,
                y + SIZE - 6,
                marks,
                text_anchor="middle",
                class_="marks",
                fill="#b00020",
            )
        )
    return parts


def board_svg(view: Mapping[str, Any], word: Word = same_words) -> str:
    """The card's `board_svg`: the SVG map of a view that holds a map, else ""."""
    return svg_map(view, word) if "map" in view else ""
