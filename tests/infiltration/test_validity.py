"""Conformance: the Validity check grammar (rules/infiltration.md, Resolution §3,
"Validity check grammar")."""

from __future__ import annotations

import dataclasses
import random
import sys
from dataclasses import dataclass, field

import pytest

from engine.core import OrderSyntaxError
from engine.infiltration.rooms import FEATURES, FLOORS, ROOMS, TERMINALS
from engine.infiltration.validity.statements import MAX_NESTING, parse_statement
from engine.infiltration.validity.facts import (
    And,
    Attacked,
    CodeIs,
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
    TerminalIs,
    Used,
    ValidityWorld,
    VisitedFeature,
    VisitedRoom,
    WasIn,
    evaluate,
)
from engine.infiltration.validity.words import GRAMMAR_HELP

NAMES = ("Bob", "Ann", "Big Boss", "Cy")


@dataclass(frozen=True)
class FakeWorld:
    """A small game state answering every ValidityWorld question from plain sets."""

    rooms_of_living: dict[str, str] = field(default_factory=dict)
    history: frozenset[tuple[str, str, int]] = frozenset()
    stingers: frozenset[str] = frozenset()
    visited_rooms: frozenset[tuple[str, str]] = frozenset()
    visited_features: frozenset[tuple[str, str]] = frozenset()
    attacks: frozenset[tuple[str, str, int]] = frozenset()
    uses: frozenset[tuple[str, str, int]] = frozenset()
    features: dict[str, str] = field(default_factory=dict)
    terminal_states: dict[str, str] = field(default_factory=dict)
    guard_rooms: dict[str, str] = field(default_factory=dict)
    dead_guards: frozenset[str] = frozenset()
    the_code: str = "0427"
    hangar_is_open: bool = False

    def is_alive(self, name: str) -> bool:
        return name in self.rooms_of_living

    def room_of(self, name: str) -> str | None:
        return self.rooms_of_living.get(name)

    def was_in(self, name: str, room: str, turn: int) -> bool:
        return (name, room, turn) in self.history

    def has_stinger(self, name: str) -> bool:
        return name in self.stingers

    def visited_room(self, name: str, room: str) -> bool:
        return (name, room) in self.visited_rooms

    def visited_feature(self, name: str, feature: str) -> bool:
        return (name, feature) in self.visited_features

    def attacked(self, name: str, target: str, turn: int) -> bool:
        return (name, target, turn) in self.attacks

    def used(self, name: str, terminal: str, turn: int) -> bool:
        return (name, terminal, turn) in self.uses

    def room_has(self, room: str, feature: str) -> bool:
        return self.features.get(room) == feature

    def terminal_is(self, room: str, condition: str) -> bool:
        return self.terminal_states.get(room) == condition

    def guard_in(self, floor: str, room: str) -> bool:
        return floor not in self.dead_guards and self.guard_rooms.get(floor) == room

    def guard_dead(self, floor: str) -> bool:
        return floor in self.dead_guards

    def code(self) -> str:
        return self.the_code

    def hangar_open(self) -> bool:
        return self.hangar_is_open


WORLD: ValidityWorld = FakeWorld(
    rooms_of_living={"Bob": "D-4", "Ann": "A-1", "Big Boss": "H-8"},  # Cy is dead
    history=frozenset({("Bob", "C-2", 3), ("Cy", "E-5", 1)}),
    stingers=frozenset({"Ann"}),
    visited_rooms=frozenset({("Bob", "B-7"), ("Cy", "E-5")}),
    visited_features=frozenset({("Bob", "WEAPONS LAB"), ("Ann", "GENERALS ROOM"), ("Ann", "SEER")}),
    attacks=frozenset({("Bob", "Cy", 2), ("Ann", "guard C", 4)}),
    uses=frozenset({("Ann", "MAPDATA", 2), ("Bob", "GUARD", 5)}),
    features={"D-4": "GAS", "F-6": "WEAPONS LAB", "G-1": "GENERALS ROOM", "B-3": "GUARD"},
    terminal_states={"D-4": "HACKED", "E-2": "DESTROYED"},
    guard_rooms={"C": "C-5", "A": "A-3", "G": "G-6"},
    dead_guards=frozenset({"G"}),
    the_code="0427",
    hangar_is_open=True,
)


def truth(text: str, world: ValidityWorld = WORLD) -> bool:
    return evaluate(parse_statement(text, NAMES), world)


def syntax_error(text: str, names=NAMES) -> str:
    with pytest.raises(OrderSyntaxError) as caught:
        parse_statement(text, names)
    return str(caught.value)


# ----------------------------------------------------------------- every fact form
@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("Bob IS IN D-4", IsIn("Bob", "D-4"), True),
        ("Bob IS IN D-5", IsIn("Bob", "D-5"), False),
        ("Cy IS IN E-5", IsIn("Cy", "E-5"), False),  # the dead are in no room
    ],
)
def test_v001_is_in(text, parsed, expected):
    """Validity check, grammar: PLAYER "IS IN" ROOM — the living character's present room."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("Bob WAS IN C-2 ON TURN 3", WasIn("Bob", "C-2", 3), True),
        ("Bob WAS IN C-2 ON TURN 2", WasIn("Bob", "C-2", 2), False),
        ("Cy WAS IN E-5 ON TURN 1", WasIn("Cy", "E-5", 1), True),
        ("Cy WAS IN E-5 ON TURN 0", WasIn("Cy", "E-5", 0), False),
    ],
)
def test_v002_was_in_on_turn(text, parsed, expected):
    """Validity check, grammar: PLAYER "WAS IN" ROOM "ON TURN" N."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [("Bob IS ALIVE", IsAlive("Bob"), True), ("Cy IS ALIVE", IsAlive("Cy"), False)],
)
def test_v003_is_alive(text, parsed, expected):
    """Validity check, grammar: PLAYER "IS ALIVE"."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [("Cy IS DEAD", IsDead("Cy"), True), ("Bob IS DEAD", IsDead("Bob"), False)],
)
def test_v004_is_dead(text, parsed, expected):
    """Validity check, grammar: PLAYER "IS DEAD"."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [("Ann HAS STINGER", HasStinger("Ann"), True), ("Bob HAS STINGER", HasStinger("Bob"), False)],
)
def test_v005_has_stinger(text, parsed, expected):
    """Validity check, grammar: PLAYER "HAS STINGER"."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("Bob VISITED B-7", VisitedRoom("Bob", "B-7"), True),
        ("Bob VISITED B-8", VisitedRoom("Bob", "B-8"), False),
        ("Cy VISITED e5", VisitedRoom("Cy", "E-5"), True),
    ],
)
def test_v006_visited_room(text, parsed, expected):
    """Validity check, grammar: PLAYER "VISITED" ROOM."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("Bob VISITED WEAPONS LAB", VisitedFeature("Bob", "WEAPONS LAB"), True),
        ("Ann VISITED WEAPONS LAB", VisitedFeature("Ann", "WEAPONS LAB"), False),
        ("Ann VISITED GENERALS ROOM", VisitedFeature("Ann", "GENERALS ROOM"), True),
        ("Ann VISITED GENERAL'S ROOM", VisitedFeature("Ann", "GENERALS ROOM"), True),
        ("Ann VISITED GENERAL’S ROOM", VisitedFeature("Ann", "GENERALS ROOM"), True),
        ("Ann VISITED SEER", VisitedFeature("Ann", "SEER"), True),
        ("Ann VISITED HANGAR", VisitedFeature("Ann", "HANGAR"), False),
    ],
)
def test_v007_visited_feature(text, parsed, expected):
    """Validity check, grammar: PLAYER "VISITED" FEATURE, with multi-word WEAPONS LAB and GENERALS ROOM
    (GENERAL'S ROOM accepted too)."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("Bob ATTACKED Cy ON TURN 2", Attacked("Bob", "Cy", 2), True),
        ("Bob ATTACKED Cy ON TURN 3", Attacked("Bob", "Cy", 3), False),
        ("Cy ATTACKED Bob ON TURN 2", Attacked("Cy", "Bob", 2), False),
    ],
)
def test_v008_attacked_player(text, parsed, expected):
    """Validity check, grammar: PLAYER "ATTACKED" PLAYER "ON TURN" N."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("Ann ATTACKED GUARD C ON TURN 4", Attacked("Ann", "guard C", 4), True),
        ("Ann ATTACKED guard c ON TURN 4", Attacked("Ann", "guard C", 4), True),
        ("Ann ATTACKED GUARD D ON TURN 4", Attacked("Ann", "guard D", 4), False),
    ],
)
def test_v009_attacked_guard(text, parsed, expected):
    """Validity check, grammar: PLAYER "ATTACKED" "GUARD" FLOOR "ON TURN" N; the world is asked about the
    target "guard X"."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("Ann USED MAPDATA ON TURN 2", Used("Ann", "MAPDATA", 2), True),
        ("Ann USED MAPDATA ON TURN 1", Used("Ann", "MAPDATA", 1), False),
        ("Bob USED GUARD ON TURN 5", Used("Bob", "GUARD", 5), True),
        ("Bob USED SEER ON TURN 5", Used("Bob", "SEER", 5), False),
    ],
)
def test_v010_used_terminal(text, parsed, expected):
    """Validity check, grammar: PLAYER "USED" TERMINAL "ON TURN" N."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("D-4 HAS GAS", RoomHas("D-4", "GAS"), True),
        ("D-4 HAS SEER", RoomHas("D-4", "SEER"), False),
        ("F-6 HAS WEAPONS LAB", RoomHas("F-6", "WEAPONS LAB"), True),
        ("G-1 HAS GENERAL'S ROOM", RoomHas("G-1", "GENERALS ROOM"), True),
        ("B-3 HAS GUARD", RoomHas("B-3", "GUARD"), True),
    ],
)
def test_v011_room_has_feature(text, parsed, expected):
    """Validity check, grammar: ROOM "HAS" FEATURE."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("TERMINAL IN D-4 IS HACKED", TerminalIs("D-4", "HACKED"), True),
        ("TERMINAL IN D-4 IS DESTROYED", TerminalIs("D-4", "DESTROYED"), False),
        ("TERMINAL IN E-2 IS DESTROYED", TerminalIs("E-2", "DESTROYED"), True),
        ("TERMINAL IN A-1 IS HACKED", TerminalIs("A-1", "HACKED"), False),
    ],
)
def test_v012_terminal_in_room_is(text, parsed, expected):
    """Validity check, grammar: "TERMINAL IN" ROOM "IS" ("HACKED" | "DESTROYED")."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("GUARD C IS IN C-5", GuardIn("C", "C-5"), True),
        ("GUARD C IS IN C-6", GuardIn("C", "C-6"), False),
        ("GUARD A IS IN A-3", GuardIn("A", "A-3"), True),
    ],
)
def test_v013_guard_is_in(text, parsed, expected):
    """Validity check, grammar: "GUARD" FLOOR "IS IN" ROOM."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [("GUARD G IS DEAD", GuardDead("G"), True), ("GUARD C IS DEAD", GuardDead("C"), False)],
)
def test_v014_guard_is_dead(text, parsed, expected):
    """Validity check, grammar: "GUARD" FLOOR "IS DEAD"."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


@pytest.mark.parametrize(
    "text, parsed, expected",
    [
        ("CODE IS 0427", CodeIs("0427"), True),
        ("CODE IS 427", CodeIs("427"), False),  # digits, not a number: the leading 0 counts
        ("CODE IS 1234", CodeIs("1234"), False),
    ],
)
def test_v015_code_is(text, parsed, expected):
    """Validity check, grammar: "CODE IS" DIGITS."""
    assert parse_statement(text, NAMES) == parsed
    assert truth(text) is expected


def test_v016_hangar_door_is_open():
    """Validity check, grammar: "HANGAR DOOR IS OPEN"."""
    assert parse_statement("HANGAR DOOR IS OPEN", NAMES) == HangarOpen()
    assert truth("HANGAR DOOR IS OPEN") is True
    assert truth("HANGAR DOOR IS OPEN", FakeWorld(hangar_is_open=False)) is False


# ------------------------------------------------------------- structure and case
def test_v017_precedence_not_and_or():
    """Validity check, grammar: disjunction := conjunction (OR conjunction)*; conjunction := negation
    (AND negation)*; so `NOT a AND b OR c` is `((NOT a) AND b) OR c`."""
    a, b, c = IsAlive("Bob"), IsAlive("Ann"), IsDead("Cy")
    parsed = parse_statement("NOT Bob IS ALIVE AND Ann IS ALIVE OR Cy IS DEAD", NAMES)
    assert parsed == Or((And((Not(a), b)), c))
    # True only through c; with c false the whole is false, which a different grouping
    # (NOT (a AND b OR c)) would not give.
    assert evaluate(parsed, WORLD) is True
    assert truth("NOT Bob IS ALIVE AND Ann IS ALIVE OR Cy IS ALIVE") is False
    assert truth("NOT (Bob IS ALIVE AND Ann IS ALIVE OR Cy IS ALIVE)") is False
    assert truth("NOT Bob IS ALIVE AND (Ann IS ALIVE OR Cy IS DEAD)") is False
    assert truth("NOT Cy IS ALIVE AND Ann IS ALIVE OR Bob IS DEAD") is True


def test_v018_parentheses_nest():
    """Validity check, grammar: negation := "(" statement ")"; brackets regroup and nest to any depth
    within the nesting limit, and redundant ones vanish from the value."""
    nested = "((Bob IS ALIVE OR (Cy IS ALIVE AND NOT (GUARD G IS DEAD))) AND (Ann HAS STINGER))"
    parsed = parse_statement(nested, NAMES)
    assert parsed == And(
        (Or((IsAlive("Bob"), And((IsAlive("Cy"), Not(GuardDead("G")))))), HasStinger("Ann"))
    )
    assert evaluate(parsed, WORLD) is True
    assert parse_statement("(((Bob IS ALIVE)))", NAMES) == IsAlive("Bob")
    assert truth("NOT (NOT (Bob IS ALIVE))") is True
    assert truth("NOT NOT NOT Bob IS ALIVE") is False


def test_v019_case_insensitive():
    """Validity check, grammar: "case-insensitive" — keywords, rooms, floors, features and names in any
    case give the same statement, with canonical rooms and names."""
    upper = parse_statement(
        "BOB WAS IN D-4 ON TURN 2 AND NOT BIG BOSS VISITED WEAPONS LAB OR GUARD C IS IN C-5", NAMES
    )
    lower = parse_statement(
        "bob was in d4 on turn 2 and not big boss visited weapons lab or guard c is in c5", NAMES
    )
    mixed = parse_statement(
        "bOb Was In D4 On TuRn 2 AnD nOt BiG bOsS vIsItEd WeApOnS lAb Or GuArD c iS iN c-5", NAMES
    )
    assert upper == lower == mixed
    assert str(lower) == (
        "Bob WAS IN D-4 ON TURN 2 AND NOT Big Boss VISITED WEAPONS LAB OR GUARD C IS IN C-5"
    )


def test_v020_names_that_look_like_keywords_still_work():
    """Validity check, rules: wherever the grammar says PLAYER any living player or NPC is accepted, so a
    character called Guard, Code, Not, Or or Hangar can be named without breaking the
    keyword facts."""
    names = ("Guard", "Code", "Not", "Or", "Hangar", "Bob")
    assert parse_statement("Guard IS DEAD", names) == IsDead("Guard")
    assert parse_statement("GUARD A IS DEAD", names) == GuardDead("A")
    assert parse_statement("Code IS ALIVE", names) == IsAlive("Code")
    assert parse_statement("CODE IS 1234", names) == CodeIs("1234")
    assert parse_statement("NOT Not IS ALIVE", names) == Not(IsAlive("Not"))
    assert parse_statement("Or IS ALIVE OR Bob IS DEAD", names) == Or(
        (IsAlive("Or"), IsDead("Bob"))
    )
    assert parse_statement("Hangar HAS STINGER", names) == HasStinger("Hangar")
    assert parse_statement("HANGAR DOOR IS OPEN", names) == HangarOpen()
    assert parse_statement("Bob ATTACKED guard ON TURN 1", names) == Attacked("Bob", "Guard", 1)
    assert parse_statement("Bob ATTACKED GUARD B ON TURN 1", names) == Attacked("Bob", "guard B", 1)


# ----------------------------------------------------------------- syntax errors
def test_v021_unknown_name_is_a_syntax_error():
    """Validity check, rules: "a statement that does not parse is an order error whose message shows this
    grammar"; an unknown name says which word is not a player."""
    message = syntax_error("Zed IS ALIVE")
    assert message.startswith('expected a fact, found "Zed", which is not a player\'s name')
    assert GRAMMAR_HELP in message
    assert 'found "Zed"' in syntax_error("Bob ATTACKED Zed ON TURN 2")


def test_v022_bad_room_is_a_syntax_error():
    """Validity check, grammar: ROOM is `A-1` … `H-8`; anything else is named in the error."""
    message = syntax_error("Bob IS IN Z9")
    assert message.startswith('expected a room (such as D-4) after "Bob IS IN", found "Z9"')
    assert 'found "I-1"' in syntax_error("GUARD A IS IN I-1")
    assert 'found "A-9"' in syntax_error("A-9 HAS SEER")
    assert "found the end of the statement" in syntax_error("TERMINAL IN")


def test_v023_missing_on_turn_is_a_syntax_error():
    """Validity check, grammar: WAS IN, ATTACKED and USED need "ON TURN" N."""
    for text in ("Bob WAS IN D-4", "Bob ATTACKED Cy", "Bob USED SEER"):
        message = syntax_error(text)
        assert message.startswith(f'expected "ON TURN <number>" after "{text}"'), message
        assert "found the end of the statement" in message
    assert 'expected a turn number after "Bob WAS IN D-4 ON TURN", found "two"' in syntax_error(
        "Bob WAS IN D-4 ON TURN two"
    )


def test_v024_unbalanced_parentheses_are_syntax_errors():
    """Validity check, grammar: negation := "(" statement ")"; a missing or extra bracket is named."""
    opened = syntax_error("(Bob IS ALIVE AND (Ann IS ALIVE)")
    assert 'expected AND, OR or ")" to close the "("' in opened
    assert "found the end of the statement" in opened
    closed = syntax_error("Bob IS ALIVE) OR Ann IS ALIVE")
    assert closed.startswith('found ")" with no matching "(" after "Bob IS ALIVE"')
    assert 'expected a fact after "(", found ")"' in syntax_error("()")


def test_v025_trailing_words_are_syntax_errors():
    """Validity check, grammar: statement ends after its last fact; extra words are named."""
    message = syntax_error("Bob IS ALIVE please")
    assert message.startswith(
        'expected AND, OR or the end of the statement after "Bob IS ALIVE", found "please"'
    )
    assert 'found "ON"' in syntax_error("Bob IS IN D-4 ON TURN 3")
    assert 'expected a fact after "AND", found the end' in syntax_error("Bob IS ALIVE AND")
    assert "expected a fact, found the end of the statement" in syntax_error("")
    assert "expected a fact, found the end of the statement" in syntax_error("   ")


def test_v026_errors_are_one_sentence_then_the_grammar():
    """Validity check, style: a message says what was wrong and how to fix it; here one sentence, then the
    grammar the statement must follow."""
    message = syntax_error("Bob IS SLEEPY")
    first_line, rest = message.split("\n", 1)
    assert first_line == 'expected IN, ALIVE or DEAD after "Bob IS", found "SLEEPY".'
    assert rest == GRAMMAR_HELP
    for keyword in ("disjunction", "HANGAR DOOR IS OPEN", "WEAPONS LAB", "SUPERLOCATOR"):
        assert keyword in GRAMMAR_HELP


@pytest.mark.parametrize(
    "text",
    [
        "Bob IS RED",
        "Bob IS GREEN",
        "Bob IS IN RED",
        "Bob IS IN TEAM RED",
        "Bob IS A WARRIOR",
        "Bob IS HACKER",
        "Bob HAS CLASS SNEAKER",
        "Bob IS ON TEAM GREEN",
        "Bob VISITED RED",
        "Bob ATTACKED RED ON TURN 1",
        "Bob USED RED ON TURN 1",
        "D-4 HAS RED",
        "D-4 HAS WARRIOR",
        "RED IS ALIVE",
        "REDS IS 2",
        "THERE ARE 2 REDS",
        "CODE IS RED",
        "GUARD RED IS DEAD",
        "TEAM OF Bob IS RED",
        "Bob IS NEUTRAL",
        "Bob IS ALIVE AND Bob IS RED",
        "NOT (Ann IS GREEN)",
        "Bob IS ALIVE OR HACKER IS ALIVE",
        "Bob IS RENEGADE",
        "Bob IS ENGINEER",
    ],
)
def test_v027_no_team_class_or_count_of_reds_can_be_named(text):
    """Validity check, rules: "Nothing in the grammar can name a team, a class or a number of Reds"; each
    attempt, including sneaky ones such as `Bob IS IN RED`, fails to parse and says why."""
    message = syntax_error(text)
    assert "cannot name a team, a class or a number of Reds" in message.split("\n")[0]


# ------------------------------------------------------------------------- values
def test_v028_statements_are_immutable_and_hashable():
    """Validity check, style: state values are immutable; statements can be kept in sets and events."""
    statement = parse_statement("NOT Bob IS ALIVE AND (Ann HAS STINGER OR CODE IS 1)", NAMES)
    with pytest.raises(dataclasses.FrozenInstanceError):
        statement.operands = ()  # type: ignore[misc]
    assert {statement, parse_statement(str(statement), NAMES)} == {statement}
    with pytest.raises(ValueError):
        And((IsAlive("Bob"),))
    with pytest.raises(ValueError):
        Or(())


def _random_fact(rng: random.Random, names: tuple[str, ...]):
    name = rng.choice(names)
    turn = rng.randint(0, 40)
    room = rng.choice(ROOMS)
    floor = rng.choice(FLOORS)
    kinds = [
        lambda: IsIn(name, room),
        lambda: WasIn(name, room, turn),
        lambda: IsAlive(name),
        lambda: IsDead(name),
        lambda: HasStinger(name),
        lambda: VisitedRoom(name, room),
        lambda: VisitedFeature(name, rng.choice(FEATURES)),
        lambda: Attacked(name, rng.choice(names), turn),
        lambda: Attacked(name, f"guard {floor}", turn),
        lambda: Used(name, rng.choice(TERMINALS), turn),
        lambda: RoomHas(room, rng.choice(FEATURES)),
        lambda: TerminalIs(room, rng.choice(("HACKED", "DESTROYED"))),
        lambda: GuardIn(floor, room),
        lambda: GuardDead(floor),
        lambda: CodeIs("".join(rng.choice("0123456789") for _ in range(rng.randint(1, 6)))),
        lambda: HangarOpen(),
    ]
    return rng.choice(kinds)()


def _random_statement(rng: random.Random, names: tuple[str, ...], depth: int):
    if depth == 0 or rng.random() < 0.3:
        return _random_fact(rng, names)
    shape = rng.choice(("not", "and", "or"))
    if shape == "not":
        return Not(_random_statement(rng, names, depth - 1))
    operands = tuple(_random_statement(rng, names, depth - 1) for _ in range(rng.randint(2, 4)))
    return And(operands) if shape == "and" else Or(operands)


def test_v029_canonical_text_parses_back_to_the_same_statement():
    """Validity check, style: `parse(str(s)) == s` for every statement (3,000 seeded random statements,
    including names that look like keywords or rooms), and the canonical text is a
    fixed point."""
    names = ("Bob", "ann", "Big Boss", "Not", "Guard", "Code", "Or", "And", "Hangar", "d4")
    rng = random.Random(1729)
    for _ in range(3000):
        statement = _random_statement(rng, names, depth=4)
        text = str(statement)
        reparsed = parse_statement(text, names)
        assert reparsed == statement, text
        assert str(reparsed) == text
        assert parse_statement(text.lower(), names) == statement, text


def test_v030_canonical_text_uses_minimal_parentheses():
    """Validity check, style: canonical text has upper-case keywords and only the brackets the structure
    needs."""
    a, b, c = IsAlive("Bob"), IsDead("Ann"), HasStinger("Cy")
    assert str(Or((And((Not(a), b)), c))) == "NOT Bob IS ALIVE AND Ann IS DEAD OR Cy HAS STINGER"
    assert str(And((Or((a, b)), c))) == "(Bob IS ALIVE OR Ann IS DEAD) AND Cy HAS STINGER"
    assert str(Not(And((a, b)))) == "NOT (Bob IS ALIVE AND Ann IS DEAD)"
    assert str(Not(Not(a))) == "NOT NOT Bob IS ALIVE"
    assert str(And((a, And((b, c))))) == "Bob IS ALIVE AND (Ann IS DEAD AND Cy HAS STINGER)"
    assert str(Attacked("Bob", "guard C", 3)) == "Bob ATTACKED GUARD C ON TURN 3"


# ------------------------------------------------------------------ long statements
def test_v031_statements_of_about_500_characters_parse():
    """Validity check, rules: USE VALIDITY takes a statement; the 500-character MESSAGE limit does not
    apply, and long realistic statements parse and evaluate."""
    facts = [
        "Bob WAS IN C-2 ON TURN 3",
        "Ann ATTACKED GUARD C ON TURN 4",
        "NOT Cy IS ALIVE",
        "TERMINAL IN D-4 IS HACKED",
        "Big Boss VISITED GENERAL'S ROOM",
        "CODE IS 0427",
    ]
    text = " AND ".join(f"({fact} OR GUARD G IS DEAD)" for fact in facts * 3)
    assert 450 <= len(text) <= 1000
    statement = parse_statement(text, NAMES)
    assert len(statement.operands) == 18
    assert evaluate(statement, WORLD) is True
    nested = "(" * 40 + "Bob IS ALIVE" + ")" * 40
    assert parse_statement(nested, NAMES) == IsAlive("Bob")
    nots = "NOT " * 41 + "Bob IS ALIVE"
    assert evaluate(parse_statement(nots, NAMES), WORLD) is False


def calls_made(work) -> int:
    """How many Python calls `work()` makes: a count of work that no machine load changes."""
    count = 0

    def counter(frame, event, arg):
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(counter)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def test_v032_a_200_term_or_chain_parses_in_linear_work():
    """Validity check, grammar: parsing is linear in the statement's length. A 200-term OR
    chain parses, prints and evaluates, with ten times the work of a 20-term chain (the
    work counted in calls, not timed)."""

    def chain(length):
        return " OR ".join(
            f"{NAMES[i % 4]} WAS IN {ROOMS[i % 64]} ON TURN {i}" for i in range(length)
        )

    statement = parse_statement(chain(200), NAMES)
    assert len(statement.operands) == 200
    assert parse_statement(str(statement), NAMES) == statement
    assert evaluate(statement, WORLD) is False
    short, long = (calls_made(lambda: parse_statement(chain(n), NAMES)) for n in (20, 200))
    assert long <= 12 * short


def test_v033_too_deep_nesting_is_a_clear_error_not_a_crash():
    """Validity check, grammar: a statement nesting NOT or brackets beyond MAX_NESTING is refused with a sentence,
    never a RecursionError, even when 500 characters are all brackets."""
    assert f"more than {MAX_NESTING} deep" in syntax_error("(" * 250 + ")" * 250)
    assert f"more than {MAX_NESTING} deep" in syntax_error("(" * 200 + "Bob IS ALIVE" + ")" * 200)
    assert f"more than {MAX_NESTING} deep" in syntax_error("NOT " * 125 + "Bob IS ALIVE")


def test_v034_mutated_statements_parse_or_fail_cleanly():
    """Validity check, grammar: every text either parses to a statement that round-trips or raises OrderSyntaxError
    showing the grammar, never another exception (3,000 seeded random statements, each
    with one to three words deleted, inserted or replaced, some of them junk)."""
    vocabulary = (
        "NOT AND OR ( ) IS IN WAS ON TURN ALIVE DEAD HAS STINGER VISITED ATTACKED USED "
        "TERMINAL HACKED DESTROYED GUARD CODE HANGAR DOOR OPEN WEAPONS LAB GENERALS ROOM "
        "GENERAL'S SEER GAS A C H D-4 d4 Z9 3 0427 Bob Ann Big Boss Cy RED WARRIOR ? , é"
    ).split()
    rng = random.Random(99)
    outcomes = {"parsed": 0, "refused": 0}
    for _ in range(3000):
        words = (
            str(_random_statement(rng, NAMES, depth=3))
            .replace("(", "( ")
            .replace(")", " )")
            .split()
        )
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(words) + 1)
            mutation = rng.choice(("delete", "insert", "replace"))
            if mutation == "insert" or not words[at:]:
                words.insert(at, rng.choice(vocabulary))
            elif mutation == "delete":
                del words[at]
            else:
                words[at] = rng.choice(vocabulary)
        text = " ".join(words)
        try:
            statement = parse_statement(text, NAMES)
        except OrderSyntaxError as error:
            assert str(error).endswith("\n" + GRAMMAR_HELP)
            outcomes["refused"] += 1
            continue
        outcomes["parsed"] += 1
        assert parse_statement(str(statement), NAMES) == statement
    assert outcomes["parsed"] > 20 and outcomes["refused"] > 1000, outcomes
