"""The Validity check terminal's statements (rules: Resolution §3, "Validity check grammar").

`parse_statement` turns a player's text into an immutable `Statement` (facts combined with
NOT, AND, OR; engine.infiltration.validity.facts, where `evaluate` judges one against
the game); `str()` of a statement is its canonical text, which parses back to an equal
value. Nothing in the grammar can name a team, a class or a number of Reds: such words are
simply not part of any fact (engine.infiltration.validity.words).
"""

from __future__ import annotations

from typing import Callable, Collection

from engine.core import OrderSyntaxError
from engine.errors import NO_HINT, Wording
from engine.infiltration.rooms import parse_room
from engine.infiltration.validity.facts import (
    And,
    Attacked,
    CodeIs,
    Fact,
    GuardDead,
    GuardIn,
    HangarOpen,
    HasStinger,
    IsAlive,
    IsDead,
    IsIn,
    Not,
    Or,
    RoomHas,
    Statement,
    TerminalIs,
    Used,
    VisitedFeature,
    VisitedRoom,
    WasIn,
)
from engine.infiltration.validity.tokens import DIGITS, Expected, TokenReader
from engine.infiltration.validity.words import (
    ALLEGIANCE_WORDS,
    FEATURE_SPELLINGS,
    GRAMMAR_WORDING,
    TERMINAL_SPELLINGS,
)

# Deeper nesting than this is no sensible question, and refusing it keeps every recursive
# walk (parsing, str, ==, evaluate) far from Python's recursion limit.
MAX_NESTING = 50
# At most this many facts, and one CODE IS, per statement (rules: Validity check grammar):
# without a cap one use could test thousands of codes and find the hangar's in a few uses.
MAX_FACTS = 4
MAX_CODE_FACTS = 1


def parse_statement(text: str, known_names: Collection[str]) -> Statement:
    """The statement `text` writes (rules: Validity check grammar), names made canonical.

    Keywords, rooms, floors and names match in any letter case. Raises OrderSyntaxError
    saying what was expected where, followed by the grammar (GRAMMAR_WORDING).
    """
    parser = _Parser(text, known_names)
    try:
        return parser.statement_only()
    except Expected as failure:
        note = (
            Wording(" (a validity check cannot name a team, a class or a number of Reds)")
            if any(token.upper() in ALLEGIANCE_WORDS for token in parser.words)
            else Wording(NO_HINT)
        )
        raise OrderSyntaxError.of(
            "%(problem)s%(note)s.\n%(grammar)s",
            problem=failure.message,
            note=note,
            grammar=GRAMMAR_WORDING,
        ) from None


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
        raise OrderSyntaxError.of(
            "the statement holds %(facts)s facts; a validity check takes at most %(most)s, "
            "so split the question over several uses.",
            facts=len(facts),
            most=MAX_FACTS,
        )
    if codes > MAX_CODE_FACTS:
        raise OrderSyntaxError.of(
            "the statement asks CODE IS %(codes)s times; a validity check takes at most one "
            "CODE IS fact.",
            codes=codes,
        )


_Attempt = Callable[[], "tuple[Statement, int]"]
_FactAttempt = Callable[[], "tuple[Fact, int]"]


class _Parser(TokenReader):
    """Recursive descent over words and parentheses. Alternatives are tried in order and
    the error of the one that got furthest is reported, so names that look like keywords
    still work."""

    def statement_only(self) -> Statement:
        statement, pos = self.disjunction(0, 0)
        if pos < len(self.words):
            if self.words[pos] == ")":
                raise Expected(
                    pos,
                    Wording(
                        'found ")" with no matching "(" after "%(written)s"',
                        {"written": self.written(0, pos)},
                    ),
                )
            raise self.expected(pos, Wording("AND, OR or the end of the statement"), 0)
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
            raise Expected(
                pos,
                Wording(
                    "the statement nests NOT and parentheses more than %(most)s deep",
                    {"most": MAX_NESTING},
                ),
            )
        # A fact comes first so that a player called "Not" can still be named.
        attempts: list[_Attempt] = [lambda: self.fact(pos)]
        if self.upper[pos : pos + 1] == ["NOT"]:
            attempts.append(lambda: self.negated(pos, depth))
        if self.words[pos : pos + 1] == ["("]:
            attempts.append(lambda: self.bracketed(pos, depth))
        return self.first_success(attempts)

    def negated(self, pos: int, depth: int) -> tuple[Statement, int]:
        operand, after = self.negation(pos + 1, depth + 1)
        return Not(operand), after

    def bracketed(self, pos: int, depth: int) -> tuple[Statement, int]:
        inner, after = self.disjunction(pos + 1, depth + 1)
        if self.words[after : after + 1] != [")"]:
            raise self.expected(after, Wording('AND, OR or ")" to close the "("'), pos)
        return inner, after + 1

    def fact(self, start: int) -> tuple[Fact, int]:
        attempts: list[_FactAttempt] = [
            (lambda name=name, after=after: self.player_fact(name, after, start))  # type: ignore[misc]  # defaults bind the loop values
            for name, after in self.names_at(start)
        ]
        if start < len(self.words) and parse_room(self.words[start]):
            attempts.append(lambda: self.room_fact(start))
        keyword_facts = {
            "GUARD": self.guard_fact,
            "TERMINAL": self.terminal_fact,
            "CODE": self.code_fact,
            "HANGAR": self.hangar_fact,
        }
        if start < len(self.words) and self.upper[start] in keyword_facts:
            attempts.append(lambda: keyword_facts[self.upper[start]](start))
        if not attempts and self.words[start : start + 1] in ([], [")"]):
            raise self.expected(start, Wording("a fact"), max(0, start - 1))
        if not attempts:
            raise Expected(
                start,
                Wording(
                    "expected a fact, found %(found)s, which is not a player's name, a room,"
                    ' NOT, "(", GUARD, TERMINAL IN, CODE IS or HANGAR DOOR IS OPEN',
                    {"found": self.found(start)},
                ),
            )
        return self.first_success(attempts)

    def player_fact(self, player: str, pos: int, start: int) -> tuple[Fact, int]:
        verbs = Wording("IS IN, IS ALIVE, IS DEAD, WAS IN, HAS STINGER, VISITED, ATTACKED or USED")
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
            raise self.expected(pos + 1, Wording("IN, ALIVE or DEAD"), start)
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
            found = self.feature_at(pos + 1, TERMINAL_SPELLINGS)
            if found is None:
                raise self.expected(pos + 1, Wording("a terminal (SEER, LOCATOR, …)"), start)
            terminal, after = found
            turn, after = self.on_turn(after, start)
            return Used(player, terminal, turn), after
        raise self.expected(pos, verbs, start)

    def visited(self, player: str, pos: int, start: int) -> tuple[Fact, int]:
        room = parse_room(self.words[pos]) if pos < len(self.words) else None
        if room is not None:
            return VisitedRoom(player, room), pos + 1
        found = self.feature_at(pos, FEATURE_SPELLINGS)
        if found is None:
            raise self.expected(
                pos, Wording("a room or a feature (a terminal, WEAPONS LAB, …)"), start
            )
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
        if self.upper[pos : pos + 1] == ["GUARD"]:
            attempts.append(as_guard)
        if not attempts:
            raise self.expected(pos, Wording("a player's name or GUARD <floor>"), start)
        return self.first_success(attempts)

    def room_fact(self, start: int) -> tuple[Fact, int]:
        room, pos = self.room(start, start)
        pos = self.keyword(pos, "HAS", start)
        found = self.feature_at(pos, FEATURE_SPELLINGS)
        if found is None:
            raise self.expected(pos, Wording("a feature (a terminal, WEAPONS LAB, …)"), start)
        feature, after = found
        return RoomHas(room, feature), after

    def guard_fact(self, start: int) -> tuple[Fact, int]:
        floor, pos = self.floor(start + 1, start)
        pos = self.keyword(pos, "IS", start)
        if self.upper[pos : pos + 1] == ["DEAD"]:
            return GuardDead(floor), pos + 1
        if self.upper[pos : pos + 1] == ["IN"]:
            room, after = self.room(pos + 1, start)
            return GuardIn(floor, room), after
        raise self.expected(pos, Wording("IN or DEAD"), start)

    def terminal_fact(self, start: int) -> tuple[Fact, int]:
        pos = self.keyword(start, "TERMINAL IN", start)
        room, pos = self.room(pos, start)
        pos = self.keyword(pos, "IS", start)
        if pos < len(self.words) and self.upper[pos] in ("HACKED", "DESTROYED"):
            return TerminalIs(room, self.upper[pos]), pos + 1
        raise self.expected(pos, Wording("HACKED or DESTROYED"), start)

    def code_fact(self, start: int) -> tuple[Fact, int]:
        pos = self.keyword(start, "CODE IS", start)
        if pos < len(self.words) and DIGITS.match(self.words[pos]):
            return CodeIs(self.words[pos]), pos + 1
        raise self.expected(pos, Wording("the code's digits"), start)

    def hangar_fact(self, start: int) -> tuple[Fact, int]:
        return HangarOpen(), self.keyword(start, "HANGAR DOOR IS OPEN", start)
