"""Where in a draft's text the leak check's findings lie, so a page can highlight them
(docs/design.md: The drafts page).

The leak check (pbp.forum.publishing.leaks) answers with facts and the line that holds each; the
host needs the words themselves marked. A finding's value is looked for where the check
found it: a personal fact and its subject on the lines that name both, a place by word, a
secret anywhere, case-insensitively, and never inside the players' own words (their
spans), which the check leaves out."""

from __future__ import annotations

import re
from typing import Sequence

from pbp.forum.publishing.leaks import Leak, LeakCheck, leak_check, player_spans
from pbp.game.stored import StoredGame
from pbp.render.refusals import WordedText
from pbp.storage.drafts import DraftBook, DraftRow
from pbp.storage.host_token import known_host_token

Span = tuple[int, int]


def _word(value: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(value) + r"(?![\w-])", re.IGNORECASE)


def _lines(text: str) -> list[tuple[int, str]]:
    """(offset, line) for every line of `text`, its line break left out."""
    found, offset = [], 0
    for line in text.splitlines(keepends=True):
        found.append((offset, line.rstrip("\r\n")))
        offset += len(line)
    return found


def _spans_of(leak: Leak, text: str) -> list[Span]:
    fact = leak.fact
    if fact.kind == "secret":
        pattern = re.compile(re.escape(fact.value), re.IGNORECASE)
    else:
        pattern = _word(fact.value)
    subject = _word(fact.subject) if fact.kind == "personal" and fact.subject else None
    spans: list[Span] = []
    for offset, line in _lines(text):
        if subject is not None and not subject.search(line):
            continue
        matches = list(pattern.finditer(line))
        if matches and subject is not None:  # the tie is the leak: the name is marked too
            matches += list(subject.finditer(line))
        spans += [(offset + found.start(), offset + found.end()) for found in matches]
    return spans


def _outside(span: Span, players: Sequence[Sequence[int]]) -> bool:
    return not any(span[0] < int(end) and int(start) < span[1] for start, end in players)


def _merged(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def game_leak_check(game: StoredGame, book: DraftBook) -> LeakCheck:
    """The leak check of the game as it stands, built once for all of its drafts."""
    # Read, never made here (a page only reads): a token nobody made yet cannot leak.
    token = known_host_token(game.file)
    return leak_check(game, [token] if token else [])


def leak_findings(
    game: StoredGame, book: DraftBook, row: DraftRow, text: str, check: LeakCheck | None = None
) -> tuple[list[str], list[Span]]:
    """The leak check's findings on `text` as the current text of draft `row` (what
    `pbp draft edit` would record), and the (start, end) spans of `text` they flag;
    `check`: the game's, when the caller built it already."""
    players = player_spans(row, text)
    leaks = (check or game_leak_check(game, book)).check(text, players)
    spans = [span for leak in leaks for span in _spans_of(leak, text) if _outside(span, players)]
    return [WordedText(leak.wording) for leak in leaks], _merged(spans)


def split_at(text: str, spans: Sequence[Span]) -> list[tuple[str, bool]]:
    """`text` cut into (part, flagged) pieces along `spans` (sorted, not overlapping)."""
    parts, position = [], 0
    for start, end in spans:
        if start > position:
            parts.append((text[position:start], False))
        parts.append((text[start:end], True))
        position = end
    if position < len(text):
        parts.append((text[position:], False))
    return parts
