"""The Validity check terminal's statements (rules: Resolution §3, "Validity check grammar").

`parse_statement` turns a player's text into an immutable `Statement` (facts combined with
NOT, AND, OR); `str()` of a statement is its canonical text, which parses back to an equal
value; `evaluate` judges a statement against a `ValidityWorld`, the game as it stands when
the terminals step begins. Nothing in the grammar can name a team, a class or a number of
Reds: such words are simply not part of any fact.
"""
from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Collection, Iterator, Mapping, Protocol, Sequence, TypeVar, Union

from engine.core import OrderSyntaxError
from engine.names import fold
from engine.infiltration.rooms import FEATURES, FLOORS, SPECIALS, TERMINALS, parse_room

# Deeper nesting than this is no sensible question, and refusing it keeps every recursive
# walk (parsing, str, ==, evaluate) far from Python's recursion limit.
MAX_NESTING = 50
# At most this many facts, and one CODE IS, per statement (rules: Validity check grammar):
# without a cap one use could test thousands of codes and find the hangar's in a few uses.
MAX_FACTS = 4
MAX_CODE_FACTS = 1


def _alternatives(head: str, words: tuple[str, ...], width: int = 66) -> list[str]:
    """`head := A | B | …` over lines of at most `width` characters, continued under the `:=`."""
    lines, line = [], head
    for index, word in enumerate(words):
        piece = word if index == 0 else f"| {word}"
        if index and len(line) + 1 + len(piece) > width:
            lines.append(line)
            line = " " * (head.index(":=") + 1) + piece
        else:
            line = f"{line} {piece}"
    return [*lines, line]


def _grammar_help() -> str:
    """The grammar as a player reads it in HELP and in an error: every line fits a mail
    line, with room for a quote (the shell writes no line longer than 72 characters)."""
    return "\n".join([
        "A validity check statement follows this grammar (any letter case):",
        "  statement   := disjunction",
        "  disjunction := conjunction ( OR conjunction )*",
        "  conjunction := negation ( AND negation )*",
        "  negation    := NOT negation | ( statement ) | fact",
        "  fact := PLAYER IS IN ROOM          | PLAYER WAS IN ROOM ON TURN N",
        "        | PLAYER IS ALIVE            | PLAYER IS DEAD",
        "        | PLAYER HAS STINGER         | PLAYER VISITED ROOM",
        "        | PLAYER VISITED FEATURE     | PLAYER USED TERMINAL ON TURN N",
        "        | PLAYER ATTACKED (PLAYER | GUARD FLOOR) ON TURN N",
        "        | ROOM HAS FEATURE           | TERMINAL IN ROOM IS HACKED",
        "        | TERMINAL IN ROOM IS DESTROYED",
        "        | GUARD FLOOR IS IN ROOM     | GUARD FLOOR IS DEAD",
        "        | CODE IS DIGITS             | HANGAR DOOR IS OPEN",
        *_alternatives("  TERMINAL :=", TERMINALS),
        *_alternatives("  FEATURE  :=", ("TERMINAL", *SPECIALS)),
        "  PLAYER is a player's or character's name, ROOM a room such as",
        "  D-4, FLOOR a letter A-H, N a turn number, DIGITS a code such as",
        "  0427.",
        "Example: Bob WAS IN D-4 ON TURN 2 AND NOT (GUARD C IS DEAD)",
    ])


GRAMMAR_HELP: str = _grammar_help()

# Words a player may try in order to ask about allegiance; when a statement that fails to
# parse contains one, the error says why no such question can be asked.
_ALLEGIANCE_WORDS = frozenset({
    "RED", "REDS", "GREEN", "GREENS", "NEUTRAL", "NEUTRALS", "TEAM", "TEAMS", "CLASS",
    "CLASSES", "WARRIOR", "WARRIORS", "HACKER", "HACKERS", "SNEAKER", "SNEAKERS",
    "RENEGADE", "RENEGADES", "ENGINEER", "ENGINEERS", "TRAITOR", "TRAITORS", "PATRIOT",
    "PATRIOTS", "FOXHOUND", "ROLE", "ROLES",
})

# Feature words as token sequences; "GENERAL'S ROOM" (either apostrophe) is accepted too.
_FEATURE_SPELLINGS: tuple[tuple[tuple[str, ...], str], ...] = tuple(
    sorted(
        [(tuple(feature.split()), feature) for feature in FEATURES]
        + [(("GENERAL'S", "ROOM"), "GENERALS ROOM"), (("GENERAL’S", "ROOM"), "GENERALS ROOM")],
        key=lambda spelling: -len(spelling[0]),
    )
)
_TERMINAL_SPELLINGS = tuple((words, name) for words, name in _FEATURE_SPELLINGS if name in TERMINALS)
_DIGITS = re.compile(r"^[0-9]+$")
_TOKEN = re.compile(r"\(|\)|[^\s()]+")


# ----------------------------------------------------------------------------- world
class ValidityWorld(Protocol):
    """What a validity check may ask of the game, as it is when step 3 begins."""

    def is_alive(self, name: str) -> bool: ...
    def room_of(self, name: str) -> str | None: ...           # living characters only
    def was_in(self, name: str, room: str, turn: int) -> bool: ...
    def has_stinger(self, name: str) -> bool: ...
    def visited_room(self, name: str, room: str) -> bool: ...
    def visited_feature(self, name: str, feature: str) -> bool: ...
    def attacked(self, name: str, target: str, turn: int) -> bool: ...  # target: name or "guard X"
    def used(self, name: str, terminal: str, turn: int) -> bool: ...
    def room_has(self, room: str, feature: str) -> bool: ...
    def terminal_is(self, room: str, condition: str) -> bool: ...  # "HACKED" or "DESTROYED"
    def guard_in(self, floor: str, room: str) -> bool: ...
    def guard_dead(self, floor: str) -> bool: ...
    def code(self) -> str: ...
    def hangar_open(self) -> bool: ...


# ----------------------------------------------------------------------------- facts
class Fact(ABC):
    """One atomic claim of the grammar's `fact` rule."""

    @abstractmethod
    def holds(self, world: ValidityWorld) -> bool:
        """Whether the claim is true in `world`."""


@dataclass(frozen=True)
class IsIn(Fact):
    player: str
    room: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.room_of(self.player) == self.room

    def __str__(self) -> str:
        return f"{self.player} IS IN {self.room}"


@dataclass(frozen=True)
class WasIn(Fact):
    player: str
    room: str
    turn: int

    def holds(self, world: ValidityWorld) -> bool:
        return world.was_in(self.player, self.room, self.turn)

    def __str__(self) -> str:
        return f"{self.player} WAS IN {self.room} ON TURN {self.turn}"


@dataclass(frozen=True)
class IsAlive(Fact):
    player: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.is_alive(self.player)

    def __str__(self) -> str:
        return f"{self.player} IS ALIVE"


@dataclass(frozen=True)
class IsDead(Fact):
    player: str

    def holds(self, world: ValidityWorld) -> bool:
        return not world.is_alive(self.player)

    def __str__(self) -> str:
        return f"{self.player} IS DEAD"


@dataclass(frozen=True)
class HasStinger(Fact):
    player: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.has_stinger(self.player)

    def __str__(self) -> str:
        return f"{self.player} HAS STINGER"


@dataclass(frozen=True)
class VisitedRoom(Fact):
    player: str
    room: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.visited_room(self.player, self.room)

    def __str__(self) -> str:
        return f"{self.player} VISITED {self.room}"


@dataclass(frozen=True)
class VisitedFeature(Fact):
    player: str
    feature: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.visited_feature(self.player, self.feature)

    def __str__(self) -> str:
        return f"{self.player} VISITED {self.feature}"


@dataclass(frozen=True)
class Attacked(Fact):
    """`target` is a canonical character name or a guard as `guard X`."""

    player: str
    target: str
    turn: int

    def holds(self, world: ValidityWorld) -> bool:
        return world.attacked(self.player, self.target, self.turn)

    def __str__(self) -> str:
        floor = guard_floor(self.target)
        target = f"GUARD {floor}" if floor else self.target
        return f"{self.player} ATTACKED {target} ON TURN {self.turn}"


@dataclass(frozen=True)
class Used(Fact):
    player: str
    terminal: str
    turn: int

    def holds(self, world: ValidityWorld) -> bool:
        return world.used(self.player, self.terminal, self.turn)

    def __str__(self) -> str:
        return f"{self.player} USED {self.terminal} ON TURN {self.turn}"


@dataclass(frozen=True)
class RoomHas(Fact):
    room: str
    feature: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.room_has(self.room, self.feature)

    def __str__(self) -> str:
        return f"{self.room} HAS {self.feature}"


@dataclass(frozen=True)
class TerminalIs(Fact):
    room: str
    condition: str  # "HACKED" or "DESTROYED"

    def holds(self, world: ValidityWorld) -> bool:
        return world.terminal_is(self.room, self.condition)

    def __str__(self) -> str:
        return f"TERMINAL IN {self.room} IS {self.condition}"


@dataclass(frozen=True)
class GuardIn(Fact):
    floor: str
    room: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.guard_in(self.floor, self.room)

    def __str__(self) -> str:
        return f"GUARD {self.floor} IS IN {self.room}"


@dataclass(frozen=True)
class GuardDead(Fact):
    floor: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.guard_dead(self.floor)

    def __str__(self) -> str:
        return f"GUARD {self.floor} IS DEAD"


@dataclass(frozen=True)
class CodeIs(Fact):
    digits: str  # kept as text: a code may start with 0

    def holds(self, world: ValidityWorld) -> bool:
        return world.code() == self.digits

    def __str__(self) -> str:
        return f"CODE IS {self.digits}"


@dataclass(frozen=True)
class HangarOpen(Fact):
    def holds(self, world: ValidityWorld) -> bool:
        return world.hangar_open()

    def __str__(self) -> str:
        return "HANGAR DOOR IS OPEN"


def guard_floor(target: str) -> str | None:
    """The floor of a guard target written `guard X`, or None for a character's name."""
    match = re.fullmatch(r"guard ([A-H])", target)
    return match.group(1) if match else None


# ------------------------------------------------------------------------ connectives
@dataclass(frozen=True)
class Not:
    """The statement does not hold."""

    operand: "Statement"

    def __str__(self) -> str:
        inner = str(self.operand)
        return f"NOT ({inner})" if isinstance(self.operand, (And, Or)) else f"NOT {inner}"


@dataclass(frozen=True)
class And:
    """Two or more statements that must all hold; nesting is kept as written."""

    operands: tuple["Statement", ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "operands", tuple(self.operands))
        if len(self.operands) < 2:
            raise ValueError("And needs at least two operands")

    def __str__(self) -> str:
        # An Or inside must be bracketed; so must an And, or it would flatten on re-parsing.
        return " AND ".join(
            f"({op})" if isinstance(op, (And, Or)) else str(op) for op in self.operands
        )


@dataclass(frozen=True)
class Or:
    """Two or more statements of which at least one must hold; nesting is kept as written."""

    operands: tuple["Statement", ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "operands", tuple(self.operands))
        if len(self.operands) < 2:
            raise ValueError("Or needs at least two operands")

    def __str__(self) -> str:
        return " OR ".join(f"({op})" if isinstance(op, Or) else str(op) for op in self.operands)


Statement = Union[Fact, Not, And, Or]


def evaluate(statement: Statement, world: ValidityWorld) -> bool:
    """The honest truth of `statement` in `world` (a hacked terminal's caller negates it)."""
    if isinstance(statement, Not):
        return not evaluate(statement.operand, world)
    if isinstance(statement, And):
        return all(evaluate(op, world) for op in statement.operands)
    if isinstance(statement, Or):
        return any(evaluate(op, world) for op in statement.operands)
    return statement.holds(world)


# ----------------------------------------------------------------------------- parser
def parse_statement(text: str, known_names: Collection[str]) -> Statement:
    """The statement `text` writes (rules: Validity check grammar), names made canonical.

    Keywords, rooms, floors and names match in any letter case. Raises OrderSyntaxError
    saying what was expected where, followed by GRAMMAR_HELP.
    """
    parser = _Parser(text, known_names)
    try:
        return parser.statement_only()
    except _Expected as failure:
        message = failure.message
        if any(token.upper() in _ALLEGIANCE_WORDS for token in parser.words):
            message += (
                " (a validity check cannot name a team, a class or a number of Reds)"
            )
        raise OrderSyntaxError(f"{message}.\n{GRAMMAR_HELP}") from None


def facts_of(statement: Statement) -> list[Fact]:
    """Every fact of a statement, in the order written."""
    if isinstance(statement, Not):
        return facts_of(statement.operand)
    if isinstance(statement, (And, Or)):
        return [fact for operand in statement.operands for fact in facts_of(operand)]
    return [statement]


def check_size(statement: Statement) -> None:
    """Refuse a statement longer than one use may ask (the grammar itself has no limit;
    the Validity check terminal does)."""
    facts = facts_of(statement)
    codes = sum(1 for fact in facts if isinstance(fact, CodeIs))
    if len(facts) > MAX_FACTS:
        raise OrderSyntaxError(
            f"the statement holds {len(facts)} facts; a validity check takes at most {MAX_FACTS}, "
            "so split the question over several uses.")
    if codes > MAX_CODE_FACTS:
        raise OrderSyntaxError(
            f"the statement asks CODE IS {codes} times; a validity check takes at most one CODE IS fact.")


class _Expected(Exception):
    """A parse attempt failed at token `pos`; the furthest failure is the one reported."""

    def __init__(self, pos: int, message: str):
        super().__init__(message)
        self.pos = pos
        self.message = message


_Attempt = Callable[[], "tuple[Statement, int]"]
_FactAttempt = Callable[[], "tuple[Fact, int]"]
_Parsed = TypeVar("_Parsed")


class _Parser:
    """Recursive descent over words and parentheses; each method takes a token position
    and returns (value, next position). Alternatives are tried in order and the error of
    the one that got furthest is reported, so names that look like keywords still work."""

    def __init__(self, text: str, known_names: Collection[str]):
        self.text = text
        spans = [(m.group(), m.start(), m.end()) for m in _TOKEN.finditer(text)]
        self.words = [word for word, _, _ in spans]
        self.upper = [word.upper() for word in self.words]
        self.spans = [(start, end) for _, start, end in spans]
        self.names = _name_index(tuple(known_names))

    # -- helpers
    def found(self, pos: int) -> str:
        return f'"{self.words[pos]}"' if pos < len(self.words) else "the end of the statement"

    def written(self, start: int, end: int) -> str:
        """The player's own text of tokens start..end-1, shortened from the left if long."""
        if end <= start:
            return ""
        piece = self.text[self.spans[start][0]:self.spans[end - 1][1]]
        return piece if len(piece) <= 60 else "…" + piece[-59:]

    def expected(self, pos: int, what: str, start: int) -> _Expected:
        after = self.written(start, pos)
        where = f' after "{after}"' if after else ""
        return _Expected(pos, f"expected {what}{where}, found {self.found(pos)}")

    def words_at(self, pos: int, words: tuple[str, ...]) -> int | None:
        """Position after `words` if they come next (any case), else None."""
        if tuple(self.upper[pos:pos + len(words)]) == words:
            return pos + len(words)
        return None

    def keyword(self, pos: int, phrase: str, start: int, what: str | None = None) -> int:
        """Position after the words of `phrase`; the error names the first missing word
        (or `what` when the phrase is missing from its first word)."""
        for index, word in enumerate(phrase.split()):
            if self.upper[pos:pos + 1] != [word]:
                raise self.expected(pos, what if what and index == 0 else word, start)
            pos += 1
        return pos

    def room(self, pos: int, start: int) -> tuple[str, int]:
        room = parse_room(self.words[pos]) if pos < len(self.words) else None
        if room is None:
            raise self.expected(pos, "a room (such as D-4)", start)
        return room, pos + 1

    def floor(self, pos: int, start: int) -> tuple[str, int]:
        if pos < len(self.words) and self.upper[pos] in FLOORS:
            return self.upper[pos], pos + 1
        raise self.expected(pos, "a floor letter (A-H)", start)

    def number(self, pos: int, start: int) -> tuple[int, int]:
        if pos < len(self.words) and _DIGITS.match(self.words[pos]):
            return int(self.words[pos]), pos + 1
        raise self.expected(pos, "a turn number", start)

    def on_turn(self, pos: int, start: int) -> tuple[int, int]:
        pos = self.keyword(pos, "ON TURN", start, '"ON TURN <number>"')
        return self.number(pos, start)

    def feature_at(self, pos: int, spellings: Sequence[tuple[tuple[str, ...], str]]) -> tuple[str, int] | None:
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
            candidate = tuple(fold(w) for w in self.words[pos:pos + len(name_words)])
            if candidate == name_words:
                yield canonical, pos + len(name_words)

    @staticmethod
    def first_success(attempts: Sequence[Callable[[], _Parsed]]) -> _Parsed:
        furthest: _Expected | None = None
        for attempt in attempts:
            try:
                return attempt()
            except _Expected as failure:
                if furthest is None or failure.pos > furthest.pos:
                    furthest = failure
        assert furthest is not None  # callers pass at least one attempt
        raise furthest

    # -- grammar
    def statement_only(self) -> Statement:
        statement, pos = self.disjunction(0, 0)
        if pos < len(self.words):
            if self.words[pos] == ")":
                raise _Expected(
                    pos, f'found ")" with no matching "(" after "{self.written(0, pos)}"'
                )
            raise self.expected(pos, "AND, OR or the end of the statement", 0)
        return statement

    def disjunction(self, pos: int, depth: int) -> tuple[Statement, int]:
        first, pos = self.conjunction(pos, depth)
        operands = [first]
        while (after := self.words_at(pos, ("OR",))) is not None:
            operand, pos = self.conjunction(after, depth)
            operands.append(operand)
        return (Or(tuple(operands)) if len(operands) > 1 else first), pos

    def conjunction(self, pos: int, depth: int) -> tuple[Statement, int]:
        first, pos = self.negation(pos, depth)
        operands = [first]
        while (after := self.words_at(pos, ("AND",))) is not None:
            operand, pos = self.negation(after, depth)
            operands.append(operand)
        return (And(tuple(operands)) if len(operands) > 1 else first), pos

    def negation(self, pos: int, depth: int) -> tuple[Statement, int]:
        if depth > MAX_NESTING:
            raise _Expected(
                pos, f"the statement nests NOT and parentheses more than {MAX_NESTING} deep"
            )
        # A fact comes first so that a player called "Not" can still be named.
        attempts: list[_Attempt] = [lambda: self.fact(pos)]
        if self.upper[pos:pos + 1] == ["NOT"]:
            attempts.append(lambda: self.negated(pos, depth))
        if self.words[pos:pos + 1] == ["("]:
            attempts.append(lambda: self.bracketed(pos, depth))
        return self.first_success(attempts)

    def negated(self, pos: int, depth: int) -> tuple[Statement, int]:
        operand, after = self.negation(pos + 1, depth + 1)
        return Not(operand), after

    def bracketed(self, pos: int, depth: int) -> tuple[Statement, int]:
        inner, after = self.disjunction(pos + 1, depth + 1)
        if self.words[after:after + 1] != [")"]:
            raise self.expected(after, 'AND, OR or ")" to close the "("', pos)
        return inner, after + 1

    def fact(self, start: int) -> tuple[Fact, int]:
        attempts: list[_FactAttempt] = [
            (lambda name=name, after=after: self.player_fact(name, after, start))  # type: ignore[misc]  # defaults bind the loop values
            for name, after in self.names_at(start)
        ]
        if start < len(self.words) and parse_room(self.words[start]):
            attempts.append(lambda: self.room_fact(start))
        keyword_facts = {
            "GUARD": self.guard_fact, "TERMINAL": self.terminal_fact,
            "CODE": self.code_fact, "HANGAR": self.hangar_fact,
        }
        if start < len(self.words) and self.upper[start] in keyword_facts:
            attempts.append(lambda: keyword_facts[self.upper[start]](start))
        if not attempts and self.words[start:start + 1] in ([], [")"]):
            raise self.expected(start, "a fact", max(0, start - 1))
        if not attempts:
            raise _Expected(
                start,
                f"expected a fact, found {self.found(start)}, which is not a player's name, "
                "a room, NOT, \"(\", GUARD, TERMINAL IN, CODE IS or HANGAR DOOR IS OPEN",
            )
        return self.first_success(attempts)

    def player_fact(self, player: str, pos: int, start: int) -> tuple[Fact, int]:
        verbs = "IS IN, IS ALIVE, IS DEAD, WAS IN, HAS STINGER, VISITED, ATTACKED or USED"
        word = self.upper[pos] if pos < len(self.words) else ""
        if word == "IS":
            following = self.upper[pos + 1] if pos + 1 < len(self.words) else ""
            if following == "IN":
                room, after = self.room(pos + 2, start)
                return IsIn(player, room), after
            if following == "ALIVE":
                return IsAlive(player), pos + 2
            if following == "DEAD":
                return IsDead(player), pos + 2
            raise self.expected(pos + 1, "IN, ALIVE or DEAD", start)
        if word == "WAS":
            after = self.keyword(pos, "WAS IN", start)
            room, after = self.room(after, start)
            turn, after = self.on_turn(after, start)
            return WasIn(player, room, turn), after
        if word == "HAS":
            return HasStinger(player), self.keyword(pos, "HAS STINGER", start)
        if word == "VISITED":
            return self.visited(player, pos + 1, start)
        if word == "ATTACKED":
            return self.attacked(player, pos + 1, start)
        if word == "USED":
            found = self.feature_at(pos + 1, _TERMINAL_SPELLINGS)
            if found is None:
                raise self.expected(pos + 1, "a terminal (SEER, LOCATOR, …)", start)
            terminal, after = found
            turn, after = self.on_turn(after, start)
            return Used(player, terminal, turn), after
        raise self.expected(pos, verbs, start)

    def visited(self, player: str, pos: int, start: int) -> tuple[Fact, int]:
        room = parse_room(self.words[pos]) if pos < len(self.words) else None
        if room is not None:
            return VisitedRoom(player, room), pos + 1
        found = self.feature_at(pos, _FEATURE_SPELLINGS)
        if found is None:
            raise self.expected(pos, "a room or a feature (a terminal, WEAPONS LAB, …)", start)
        feature, after = found
        return VisitedFeature(player, feature), after

    def attacked(self, player: str, pos: int, start: int) -> tuple[Fact, int]:
        def as_target(target: str, after: int) -> _FactAttempt:
            def attempt() -> tuple[Fact, int]:
                turn, end = self.on_turn(after, start)
                return Attacked(player, target, turn), end
            return attempt

        def as_guard() -> tuple[Fact, int]:
            floor, after = self.floor(pos + 1, start)
            return as_target(f"guard {floor}", after)()

        attempts = [as_target(name, after) for name, after in self.names_at(pos)]
        if self.upper[pos:pos + 1] == ["GUARD"]:
            attempts.append(as_guard)
        if not attempts:
            raise self.expected(pos, "a player's name or GUARD <floor>", start)
        return self.first_success(attempts)

    def room_fact(self, start: int) -> tuple[Fact, int]:
        room, pos = self.room(start, start)
        pos = self.keyword(pos, "HAS", start)
        found = self.feature_at(pos, _FEATURE_SPELLINGS)
        if found is None:
            raise self.expected(pos, "a feature (a terminal, WEAPONS LAB, …)", start)
        feature, after = found
        return RoomHas(room, feature), after

    def guard_fact(self, start: int) -> tuple[Fact, int]:
        floor, pos = self.floor(start + 1, start)
        pos = self.keyword(pos, "IS", start)
        if self.upper[pos:pos + 1] == ["DEAD"]:
            return GuardDead(floor), pos + 1
        if self.upper[pos:pos + 1] == ["IN"]:
            room, after = self.room(pos + 1, start)
            return GuardIn(floor, room), after
        raise self.expected(pos, "IN or DEAD", start)

    def terminal_fact(self, start: int) -> tuple[Fact, int]:
        pos = self.keyword(start, "TERMINAL IN", start)
        room, pos = self.room(pos, start)
        pos = self.keyword(pos, "IS", start)
        if pos < len(self.words) and self.upper[pos] in ("HACKED", "DESTROYED"):
            return TerminalIs(room, self.upper[pos]), pos + 1
        raise self.expected(pos, "HACKED or DESTROYED", start)

    def code_fact(self, start: int) -> tuple[Fact, int]:
        pos = self.keyword(start, "CODE IS", start)
        if pos < len(self.words) and _DIGITS.match(self.words[pos]):
            return CodeIs(self.words[pos]), pos + 1
        raise self.expected(pos, "the code's digits", start)

    def hangar_fact(self, start: int) -> tuple[Fact, int]:
        return HangarOpen(), self.keyword(start, "HANGAR DOOR IS OPEN", start)


# A game's names never change, and making their index was most of a statement's parse.
@lru_cache(maxsize=64)
def _name_index(known_names: tuple[str, ...]) -> Mapping[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """Names by their first word (case and accents folded), each as its folded words,
    longest first."""
    index: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for name in known_names:
        words = tuple(fold(word) for word in _TOKEN.findall(name))
        if words:
            index.setdefault(words[0], []).append((words, name))
    return {first: tuple(sorted(candidates, key=lambda candidate: -len(candidate[0])))
            for first, candidates in index.items()}
