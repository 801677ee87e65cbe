"""Where a draft holds player-written text (docs/design.md: Public posts — anonymous
messages are public by the rules and are not checked).

The leak check must skip exactly the players' own words and nothing else, so they are
known by position, never by searching for their text (a message "e" would otherwise hide
every "e" of the draft, a host's hand-written line included):

- while a post renders, each player-written value is wrapped in two private-use
  characters (`mark`); every value a template prints is escaped by the dialect, which
  drops private-use characters, so no input can forge a mark;
- `unmark` removes the marks from the rendered text and returns the spans they enclosed,
  as (start, end) offsets;
- a host's edit keeps a span only where the lines holding it are left exactly as they
  were (`follow`): text the host adds or changes is always checked.
"""

from __future__ import annotations

import bisect
import difflib
from typing import Iterable, Sequence

OPEN, CLOSE = "\ue000", "\ue001"
Span = tuple[int, int]


def mark(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}"


def unmark(text: str) -> tuple[str, tuple[Span, ...]]:
    """The text without marks, and the (start, end) offsets of each marked span in it."""
    out: list[str] = []
    spans: list[Span] = []
    length, start = 0, None
    for char in text:
        if char == OPEN:
            start = length
        elif char == CLOSE:
            if start is not None and length > start:
                spans.append((start, length))
            start = None
        else:
            out.append(char)
            length += 1
    return "".join(out), tuple(spans)


def follow(spans: Iterable[Sequence[int]], generated: str, edited: str) -> tuple[Span, ...]:
    """The spans of `generated` that survive unchanged in `edited`, at their new offsets:
    a span survives when every line it touches is one the edit left as it was."""
    if edited == generated:
        return tuple((start, end) for start, end in spans)
    old_lines, new_lines = generated.splitlines(keepends=True), edited.splitlines(keepends=True)
    old_starts, new_starts = _line_starts(old_lines), _line_starts(new_lines)
    kept = [
        block
        for block in difflib.SequenceMatcher(
            None, old_lines, new_lines, autojunk=False
        ).get_matching_blocks()
        if block.size
    ]
    followed = []
    for start, end in spans:
        first, last = _line_of(old_starts, start), _line_of(old_starts, end - 1)
        for old, new, size in kept:
            if old <= first and last < old + size:
                shift = new_starts[new + first - old] - old_starts[first]
                followed.append((start + shift, end + shift))
                break
    return tuple(followed)


def _line_starts(lines: list[str]) -> list[int]:
    starts, offset = [], 0
    for line in lines:
        starts.append(offset)
        offset += len(line)
    return starts


def _line_of(starts: list[int], offset: int) -> int:
    """The index of the line holding `offset`."""
    return bisect.bisect_right(starts, offset) - 1
