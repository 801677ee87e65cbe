"""How a client lays out the text/plain part of a reply: quote prefixes, hard wrapping at a
column, and format=flowed (RFC 3676) soft line breaks, with or without DelSp.

A reply's text is a list of logical `Line`s, each with its quote depth; the functions here
turn them into the physical lines the client sends.
"""

from __future__ import annotations

import re
import textwrap
from typing import NamedTuple

SIGNATURE_SEPARATOR = "-- "


class Line(NamedTuple):
    depth: int  # 0: the player's own text; 1: quoted once; …
    text: str


def prefix(depth: int, style: str, empty: bool = False) -> str:
    """The quote prefix of a line at `depth`: style "> " (Gmail, Apple: `> > text`) or ">"
    (Thunderbird, Horde: `>> text`); an empty quoted line has no trailing space."""
    if depth == 0:
        return ""
    if style == "> ":
        marks = "> " * depth
    else:
        marks = ">" * depth + " "
    return marks.rstrip() if empty else marks


def quoted(lines: list[Line], style: str) -> list[str]:
    """Physical lines, unwrapped."""
    return [prefix(line.depth, style, not line.text) + line.text for line in lines]


def hard_wrapped(lines: list[Line], style: str, width: int) -> list[str]:
    """Every line's text wrapped at `width` columns, its quote prefix put in front of each
    piece: Gmail and Outlook's plain text break long lines this way, quoted ones included,
    counting the columns of the text without its prefix (a Gmail quote line holds up to
    76 characters after its `> `)."""
    physical: list[str] = []
    for line in lines:
        mark = prefix(line.depth, style, not line.text)
        if not line.text or line.text == SIGNATURE_SEPARATOR:
            physical.append(mark + line.text)
            continue
        pieces = textwrap.wrap(
            line.text,
            width=width,
            break_long_words=False,
            break_on_hyphens=False,
            replace_whitespace=False,
            drop_whitespace=True,
        )
        physical.extend(mark + piece for piece in pieces or [""])
    return physical


def _stuffed(text: str) -> str:
    """Space-stuffing (RFC 3676, 4.4): a line starting with a space, ">" or "From " gets
    one more space in front."""
    return " " + text if text.startswith((" ", ">", "From ")) else text


def flowed(lines: list[Line], width: int, delsp: bool) -> list[str]:
    """format=flowed: long lines broken softly after a space (the break marked by a trailing
    space; with DelSp=yes one more space that the reader deletes), quote markers repeated on
    every physical line, content space-stuffed, hard line ends without trailing spaces."""
    physical: list[str] = []
    for line in lines:
        marks = ">" * line.depth + (" " if line.depth else "")
        text = line.text.rstrip(" ") if line.text != SIGNATURE_SEPARATOR else line.text
        if not text:
            physical.append(">" * line.depth)
            continue
        room = max(width - len(marks), 20)
        pieces = _soft_pieces(text, room)
        for index, piece in enumerate(pieces):
            last = index == len(pieces) - 1
            body = (
                piece if line.depth else _stuffed(piece)
            )  # at depth > 0 the space after ">" stuffs
            physical.append(marks + body + ("" if last or not delsp else " "))
    return physical


def _soft_pieces(text: str, room: int) -> list[str]:
    """`text` cut after spaces into pieces of at most `room` characters where possible;
    every piece but the last ends with the space it was cut after."""
    if len(text) <= room:
        return [text]
    words = re.findall(r"\S+\s*|\s+", text)
    pieces, current = [], ""
    for word in words:
        if current and len(current) + len(word.rstrip()) > room:
            pieces.append(current)
            current = ""
        current += word
    pieces.append(current.rstrip(" ") if current.strip() else current)
    # a piece must end with a space to flow into the next one (text cut after a space)
    return [
        piece if piece.endswith(" ") or index == len(pieces) - 1 else piece + " "
        for index, piece in enumerate(pieces)
    ]
