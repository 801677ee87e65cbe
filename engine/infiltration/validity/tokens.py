"""Reading a Validity check statement's words (rules: Resolution §3, "Validity check
grammar"): the tokens, the names of the game spelled in any case and accents, rooms,
floors and turn numbers, and the failure that got furthest, which is the one reported."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Collection, Iterator, Mapping, Sequence, TypeVar

from engine.infiltration.rooms import FLOORS, parse_room
from engine.errors import NO_HINT, Value, Wording
from engine.names import fold

DIGITS = re.compile(r"^[0-9]+$")
TOKEN = re.compile(r"\(|\)|[^\s()]+")
_Parsed = TypeVar("_Parsed")


class Expected(Exception):
    """A parse attempt failed at token `pos`; the furthest failure is the one reported,
    its `message` a Wording a reader's language words (docs/design.md: Refusals in every
    language)."""

    def __init__(self, pos: int, message: Wording):
        super().__init__(str(message))
        self.pos = pos
        self.message = message


class TokenReader:
    """The words of a statement and how the grammar reads them: each method takes a token
    position and returns (value, next position), or raises `Expected` naming what was
    expected where."""

    def __init__(self, text: str, known_names: Collection[str]):
        self.text = text
        spans = [(m.group(), m.start(), m.end()) for m in TOKEN.finditer(text)]
        self.words = [word for word, _, _ in spans]
        self.upper = [word.upper() for word in self.words]
        self.spans = [(start, end) for _, start, end in spans]
        self.names = name_index(tuple(known_names))

    def found(self, pos: int) -> Value:
        """The word at `pos` as a message quotes it, or the end of the statement."""
        if pos < len(self.words):
            return f'"{self.words[pos]}"'
        return Wording("the end of the statement")

    def written(self, start: int, end: int) -> str:
        """The player's own text of tokens start..end-1, shortened from the left if long."""
        if end <= start:
            return ""
        piece = self.text[self.spans[start][0] : self.spans[end - 1][1]]
        return piece if len(piece) <= 60 else "…" + piece[-59:]

    def expected(self, pos: int, what: Value, start: int) -> Expected:
        """What was `what` (a keyword as written, or a Wording) expected at `pos`, after
        the player's words from `start`."""
        after = self.written(start, pos)
        where = Wording(' after "%(after)s"', {"after": after}) if after else Wording(NO_HINT)
        return Expected(
            pos,
            Wording(
                "expected %(what)s%(where)s, found %(found)s",
                {"what": what, "where": where, "found": self.found(pos)},
            ),
        )

    def words_at(self, pos: int, words: tuple[str, ...]) -> int | None:
        """Position after `words` if they come next (any case), else None."""
        if tuple(self.upper[pos : pos + len(words)]) == words:
            return pos + len(words)
        return None

    def keyword(self, pos: int, phrase: str, start: int, what: Value | None = None) -> int:
        """Position after the words of `phrase`; the error names the first missing word
        (or `what` when the phrase is missing from its first word)."""
        for index, word in enumerate(phrase.split()):
            if self.upper[pos : pos + 1] != [word]:
                raise self.expected(pos, what if what and index == 0 else word, start)
            pos += 1
        return pos

    def room(self, pos: int, start: int) -> tuple[str, int]:
        room = parse_room(self.words[pos]) if pos < len(self.words) else None
        if room is None:
            raise self.expected(pos, Wording("a room (such as D-4)"), start)
        return room, pos + 1

    def floor(self, pos: int, start: int) -> tuple[str, int]:
        if pos < len(self.words) and self.upper[pos] in FLOORS:
            return self.upper[pos], pos + 1
        raise self.expected(pos, Wording("a floor letter (A-H)"), start)

    def number(self, pos: int, start: int) -> tuple[int, int]:
        if pos < len(self.words) and DIGITS.match(self.words[pos]):
            return int(self.words[pos]), pos + 1
        raise self.expected(pos, Wording("a turn number"), start)

    def on_turn(self, pos: int, start: int) -> tuple[int, int]:
        pos = self.keyword(pos, "ON TURN", start, Wording('"ON TURN <number>"'))
        return self.number(pos, start)

    def feature_at(
        self, pos: int, spellings: Sequence[tuple[tuple[str, ...], str]]
    ) -> tuple[str, int] | None:
        for words, feature in spellings:
            after = self.words_at(pos, words)
            if after is not None:
                return feature, after
        return None

    def names_at(self, pos: int) -> Iterator[tuple[str, int]]:
        """Every known name that the words at `pos` spell, longest first."""
        if pos >= len(self.words):
            return
        for name_words, canonical in self.names.get(fold(self.words[pos]), ()):
            candidate = tuple(fold(w) for w in self.words[pos : pos + len(name_words)])
            if candidate == name_words:
                yield canonical, pos + len(name_words)

    @staticmethod
    def first_success(attempts: Sequence[Callable[[], _Parsed]]) -> _Parsed:
        furthest: Expected | None = None
        for attempt in attempts:
            try:
                return attempt()
            except Expected as failure:
                if furthest is None or failure.pos > furthest.pos:
                    furthest = failure
        assert furthest is not None  # callers pass at least one attempt
        raise furthest


@lru_cache(maxsize=64)
def name_index(
    known_names: tuple[str, ...],
) -> Mapping[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """Names by their first word (case and accents folded), each as its folded words,
    longest first."""
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for name in known_names:
        words = tuple(fold(word) for word in TOKEN.findall(name))
        if words:
            index.setdefault(words[0], []).append((words, name))
    return {
        first: tuple(sorted(candidates, key=lambda candidate: -len(candidate[0])))
        for first, candidates in index.items()
    }
