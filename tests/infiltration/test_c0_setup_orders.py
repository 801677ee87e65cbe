"""Conformance, part 1: setup, turn 0 and the order grammar (rules/infiltration.md:
Cast and setup; Phases and their ids; Order grammar)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import (
    GameSetupError,
    IllegalOrderError,
    OrderBlockError,
    OrderSyntaxError,
    PlayerSpec,
)
from engine.infiltration.facility import parse_map
from engine.infiltration.orders.values import (
    Attack,
    ChooseClass,
    EnterCode,
    Move,
    Stay,
    Tamper,
    Use,
    Vote,
)
from engine.infiltration.rooms import SPECIALS
from engine.infiltration.setup import default_reds
from engine.infiltration.validity.statements import parse_statement
from engine.seat_names import player_names

from tests.infiltration.scenario import (
    BASE,
    RULES,
    make_state,
    parse,
    person,
    private,
    resolve,
    room_with,
    with_variant,
)

pytestmark = pytest.mark.usefixtures(
    "option_variant"
)  # each case under each option set (conftest.py)

SEER = room_with("SEER")


def new(players=8, seed="s", **options):
    return RULES.new_game(
        [PlayerSpec(n) for n in player_names(players)], seed, with_variant(options)
    )


def block_errors(state, name, *lines):
    with pytest.raises(OrderBlockError) as caught:
        parse(state, name, *lines)
    return caught.value.errors


# ---------------------------------------------------------------------- setup
def test_c001_default_map_counts():
    """Cast and setup: 1 Weapons Lab, 1 General's Room, 1 Hangar, 2 Generators, exactly 1
    Commander's; default map: 4 of each other type, 10 more from Locator, History, Map data,
    Seer, Validity."""
    for seed in range(20):
        counts = Counter(slot.kind for slot in new(seed=seed).layout.values())
        assert counts["WEAPONS LAB"] == counts["GENERALS ROOM"] == counts["HANGAR"] == 1
        assert counts["GENERATOR"] == 2 and counts["COMMANDER"] == 1
        for kind in ("PSYCHIC", "SUPERLOCATOR", "MESSAGE", "GAS", "GUARD", "LOCK", "SWITCH"):
            assert counts[kind] == 4
        extra = sum(counts[k] - 4 for k in ("LOCATOR", "HISTORY", "MAPDATA", "SEER", "VALIDITY"))
        assert extra == 10 and sum(counts.values()) == 64


def test_c002_start_rooms_guards_and_code():
    """Cast and setup: players start in distinct random rooms with no guard and no special
    feature; one guard per floor on its floor; the code is a random 4-digit string."""
    for seed in range(20):
        state = new(players=48, seed=seed)
        rooms = [c.room for c in state.characters.values()]
        assert len(set(rooms)) == 48
        guarded = {g.room for g in state.guards.values()}
        assert not guarded & set(rooms)
        assert all(state.layout[r].kind not in SPECIALS for r in rooms)
        assert all(g.room[0] == floor for floor, g in state.guards.items())
        assert len(state.code) == 4 and state.code.isdigit()


def test_c003_red_count_option_and_reds_know_each_other():
    """Cast and setup: Reds (option) default max(1, round(players / 5)); Reds know each other."""
    for players in (5, 12, 16, 48):
        state = new(players=players)
        assert sum(c.team == "red" for c in state.characters.values()) == default_reds(players)
    state = new(players=10, reds=3)
    reds = sorted(c.name for c in state.characters.values() if c.team == "red")
    assert len(reds) == 3
    result = resolve(state)
    for red in reds:
        assert private(result, red, "role")[0]["teammates"] == [r for r in reds if r != red]
    green = next(c.name for c in state.characters.values() if c.team == "green")
    assert private(result, green, "role")[0]["teammates"] == []


def test_c004_host_map_accepted_or_refused_with_reason():
    """Cast and setup: a host may supply the map; it must keep the counts."""
    text = "\n".join(f"{room} {feature}" for room, feature in BASE.items())
    state = new(map=text)
    assert {room: slot.kind for room, slot in state.layout.items()} == BASE
    assert parse_map(BASE) == BASE
    broken = dict(BASE, **{"A-1": "COMMANDER"})
    with pytest.raises(GameSetupError, match="COMMANDER"):
        new(map="\n".join(f"{r} {f}" for r, f in broken.items()))


def test_c005_same_seed_same_game():
    """Cast and setup: the same seed gives the same game."""
    assert RULES.to_json(new(seed="x")) == RULES.to_json(new(seed="x"))
    assert RULES.to_json(new(seed="x")) != RULES.to_json(new(seed="y"))


def test_c006_player_count_bounds():
    """Cast and setup: players 5 to 48."""
    with pytest.raises(GameSetupError, match="5 to 48"):
        new(players=4)
    with pytest.raises(GameSetupError, match="5 to 48"):
        RULES.new_game([PlayerSpec(f"P{i}") for i in range(49)], 1, with_variant())


# ---------------------------------------------------------------------- turn 0
@pytest.mark.parametrize("default_class", ["warrior", "hacker"])
def test_c010_class_choice_and_default_class_option(default_class):
    """Cast and setup: Greens choose a class in turn 0; one who does not is a Warrior (option)."""
    state = new(players=8, seed="c", default_class=default_class)
    greens = [c.name for c in state.characters.values() if c.team == "green"]
    result = resolve(state, {greens[0]: "CLASS SNEAKER"})
    roles = {n: c.role for n, c in result.state.characters.items()}
    assert roles[greens[0]] == "sneaker"
    assert all(roles[g] == default_class for g in greens[1:])
    assert all(c.role == "warrior" for c in result.state.characters.values() if c.team == "red")


def test_c011_reds_are_always_warriors():
    """Cast and setup: Reds are always Warriors."""
    state = new(players=8)
    red = next(c.name for c in state.characters.values() if c.team == "red")
    errors = block_errors(state, red, "CLASS HACKER")
    assert isinstance(errors[0], IllegalOrderError) and "always Warriors" in str(errors[0])
    assert parse(state, red, "CLASS WARRIOR") == (ChooseClass("warrior"),)


def test_c012_phase_ids_and_start_arrival_report():
    """Phases: T0-class ends with an arrival report for each start room; then Tn-movement,
    Tn-decision."""
    state = new(players=6)
    assert RULES.phase(state).id == "T0-class" and RULES.phase(state).kind == "class"
    result = resolve(state)
    for name, character in state.characters.items():
        report = private(result, name, "arrival")[0]
        assert report["room"] == character.room and report["movement"] == "start"
    state = result.state
    assert RULES.phase(state).id == "T1-movement"
    state = resolve(state).state
    assert RULES.phase(state).id == "T1-decision" and RULES.phase(state).kind == "decision"
    state = resolve(state).state
    assert RULES.phase(state).id == "T2-movement"


# ---------------------------------------------------------------------- grammar
def test_c020_keywords_case_insensitive_with_optional_colon():
    """Order grammar: case-insensitive, an optional colon after the whole keyword."""
    state = make_state(person("Ann", "A-2"), step="movement")
    assert parse(state, "Ann", "MOVE D-4") == parse(state, "Ann", "move: d4") == (Move("D-4"),)
    state = make_state(person("Ann", SEER), person("Bob", "C-3"))
    assert parse(state, "Ann", "use seer: bob") == (Use("SEER", "Bob"),)


def test_c021_canonical_text_parses_back_to_the_same_order():
    """Order values: parse(str(order)) == order, for every order type."""
    names = ["Ann", "Bob", "Cy"]
    statement = parse_statement("Bob WAS IN D-4 ON TURN 2 AND NOT GUARD C IS DEAD", names)
    cases = {"class": [ChooseClass("hacker")], "movement": [Move("H-8"), Stay(), EnterCode("0042")]}
    state = make_state(person("Ann", "A-2"), step="class", turn=0)
    for order in cases["class"]:
        assert parse(state, "Ann", str(order)) == (order,)
    state = make_state(person("Ann", "A-2"), step="movement")
    for order in cases["movement"]:
        assert parse(state, "Ann", str(order)) == (order,)
    uses = [
        Use("SEER", "Bob"),
        Use("PSYCHIC"),
        Use("LOCATOR", "Cy"),
        Use("HISTORY", "B-3"),
        Use("MAPDATA", ("A-1", "B-2", "C-3", "D-4", "E-5")),
        Use("SUPERLOCATOR"),
        Use("MESSAGE", ": a message with: colons, 'quotes' & more"),
        Use("GAS", "C-3"),
        Use("GUARD"),
        Use("VALIDITY", statement),
        Use("COMMANDER", (("A", "B-2"), ("C", "C-7"))),
        Use("LOCK", "D-1"),
        Use("SWITCH", "E-2"),
    ]
    for use in uses:
        room = room_with(use.terminal)
        state = make_state(
            person("Ann", room, role="sneaker"), person("Bob", "C-1"), person("Cy", "C-2")
        )
        assert parse(state, "Ann", str(use)) == (use,), str(use)
    state = make_state(
        person("Ann", SEER, team="red"),
        person("Bob", SEER),
        person("Cy", "C-2"),
        guards={"A": SEER},
    )
    for order in (
        Tamper("HACK"),
        Tamper("DESTROY"),
        Vote("Bob"),
        Vote("NO LYNCH"),
        Vote("NO REDS LEFT"),
        Attack(("Bob", "guard A")),
    ):
        assert parse(state, "Ann", str(order)) == (order,), str(order)
    state = make_state(person("Eng", SEER, team="neutral", role="engineer", npc=True))
    for order in (Tamper("RESTORE"), Tamper("REPAIR")):
        assert parse(state, "Eng", str(order)) == (order,)


def test_c022_unknown_keyword_is_a_syntax_error_with_a_suggestion():
    """Order grammar; design: errors say what was wrong and how to fix it (Did you mean)."""
    state = make_state(person("Ann", SEER), person("Bob", SEER))
    errors = block_errors(state, "Ann", "# my orders", "ATACK Bob")
    assert len(errors) == 1 and isinstance(errors[0], OrderSyntaxError)
    assert errors[0].line == 2
    assert str(errors[0]).startswith('Line 2: "ATACK Bob"') and "Did you mean ATTACK?" in str(
        errors[0]
    )
    errors = block_errors(state, "Ann", "USE SEEER Bob")
    assert "Did you mean SEER?" in str(errors[0])
    errors = block_errors(state, "Ann", "VOTE Bobb")
    assert isinstance(errors[0], OrderSyntaxError) and "Did you mean Bob?" in str(errors[0])
    # a bare class in the class phase is the CLASS order, not the nearest keyword (HACK)
    state = make_state(person("Ann", SEER), person("Bob", SEER), step="class")
    errors = block_errors(state, "Ann", "HACKER")
    assert str(errors[0]).endswith(
        'unknown order "HACKER". Did you mean CLASS HACKER? In a class phase you can give: CLASS.'
    )


def test_c023_one_line_of_each_kind_per_block():
    """Order grammar: MOVE and STAY are one kind; USE, HACK, DESTROY, RESTORE and REPAIR are
    one kind; a repeated kind is an error."""
    state = make_state(person("Ann", "A-2"), step="movement")
    errors = block_errors(state, "Ann", "MOVE A-3", "STAY")
    assert isinstance(errors[0], IllegalOrderError) and errors[0].line == 2
    state = make_state(person("Ann", SEER, team="red"), person("Bob", "C-3"))
    errors = block_errors(state, "Ann", "USE SEER Bob", "HACK")
    assert errors[0].line == 2 and "one terminal action" in str(errors[0])
    assert len(parse(state, "Ann", "USE SEER Bob", "VOTE Bob")) == 2


def test_c024_order_of_another_phase_is_illegal():
    """Order grammar: each phase has its orders."""
    state = make_state(person("Ann", SEER), person("Bob", "C-3"))
    errors = block_errors(state, "Ann", "MOVE A-1")
    assert isinstance(errors[0], IllegalOrderError) and "not an order of this phase" in str(
        errors[0]
    )


def test_c025_use_must_name_the_terminal_the_sender_saw():
    """Order grammar: the USE keyword must name the terminal the sender saw in the room."""
    state = make_state(person("Ann", SEER), person("Bob", "C-3"))
    errors = block_errors(state, "Ann", "USE PSYCHIC")
    assert isinstance(errors[0], IllegalOrderError) and "write USE SEER" in str(errors[0])
    state = make_state(person("Ann", "H-1"))
    errors = block_errors(state, "Ann", "USE PSYCHIC")
    assert "holds no terminal" in str(errors[0])


def test_c026_wrong_code_is_never_revealed_by_the_receipt():
    """Order grammar: a wrong CODE is found out at the door, not in the receipt."""
    state = make_state(person("Ann", "A-2"), step="movement", code="1234")
    assert parse(state, "Ann", "MOVE H-3", "CODE 9999") == (Move("H-3"), EnterCode("9999"))
    result = resolve(state, {"Ann": "MOVE H-3\nCODE 9999"})
    assert private(result, "Ann", "arrival")[0]["movement"] == "door-shut"
    errors = block_errors(state, "Ann", "CODE 12a4")
    assert isinstance(errors[0], OrderSyntaxError) and "four digits" in str(errors[0])


def test_c027_terminal_orders_under_alert():
    """Alert: no terminal action except by Sneakers and Renegades; a terminal order from anyone
    else where Alert holds is an order error; voting and attacking are unaffected.

    Alert is raised on the terminal's own floor, so it holds there under either `alert_scope`
    (a floor's Alert does not reach other floors under `alert_scope=floor`: see c073)."""
    state = make_state(
        person("Ann", SEER),
        person("Sam", SEER, role="sneaker"),
        person("Bob", "C-3"),
        guards={"A": SEER},
        alert_floors=(SEER[0],),
    )
    errors = block_errors(state, "Ann", "USE SEER Bob")
    assert isinstance(errors[0], IllegalOrderError) and "Alert holds" in str(errors[0])
    assert len(parse(state, "Ann", "VOTE Bob", "ATTACK guard A")) == 2
    assert parse(state, "Sam", "USE SEER Bob") == (Use("SEER", "Bob"),)


def test_c028_validity_statement_that_does_not_parse_shows_the_grammar():
    """Validity check, grammar: a statement that does not parse is an order error whose
    message shows this grammar."""
    room = room_with("VALIDITY")
    state = make_state(person("Ann", room), person("Bob", "C-3"))
    errors = block_errors(state, "Ann", "USE VALIDITY Bob IS RED")
    assert isinstance(errors[0], OrderSyntaxError) and "disjunction" in str(errors[0])


def test_c029_attack_targets_are_who_is_in_the_room():
    """Order grammar: ATTACK names players in the room and GUARD <floor>; bare GUARD when
    exactly one guard is there."""
    state = make_state(
        person("Ann", SEER), person("Bob", SEER), person("Cy", "C-3"), guards={"A": SEER}
    )
    assert parse(state, "Ann", "ATTACK Bob, GUARD") == (Attack(("Bob", "guard A")),)
    assert "not in your room" in str(block_errors(state, "Ann", "ATTACK Cy")[0])
    assert "yourself" in str(block_errors(state, "Ann", "ATTACK Ann")[0])
    assert "not in your room" in str(block_errors(state, "Ann", "ATTACK GUARD C")[0])
    state = make_state(person("Ann", SEER), guards={"A": SEER, "B": SEER})
    assert "exactly one guard" in str(block_errors(state, "Ann", "ATTACK GUARD")[0])


def test_c030_who_may_give_which_order():
    """Order grammar: HACK/DESTROY (Red), RESTORE (Hacker, Engineer), REPAIR (Engineer);
    NPCs never vote and cannot be lynched."""
    state = make_state(
        person("Gus", SEER),
        person("Hal", SEER, role="hacker"),
        person("Npc", SEER, team="neutral", role="renegade", npc=True),
        person("Bob", "C-3"),
    )
    assert "only Reds" in str(block_errors(state, "Gus", "HACK")[0])
    assert "Hackers and Engineers" in str(block_errors(state, "Gus", "RESTORE")[0])
    assert "only Engineers" in str(block_errors(state, "Hal", "REPAIR")[0])
    assert parse(state, "Hal", "RESTORE") == (Tamper("RESTORE"),)
    assert "NPCs never vote" in str(block_errors(state, "Npc", "VOTE Bob")[0])
    assert "cannot be lynched" in str(block_errors(state, "Gus", "VOTE Npc")[0])


def test_c031_every_error_of_a_block_is_reported_and_comments_skipped():
    """Order mail format: a block is accepted or rejected whole, with every error and its line."""
    state = make_state(person("Ann", SEER), person("Bob", "C-3"))
    errors = block_errors(state, "Ann", "# comment", "", "VOTE Zed", "ATTACK Bob", "VOTE Bob")
    assert [e.line for e in errors] == [3, 4]


def test_c032_list_arguments_accept_commas_spaces_or_both():
    """Order grammar: list arguments accept commas, spaces or both."""
    state = make_state(person("Ann", SEER), person("Bob", SEER), person("Cy", SEER))
    expected = (Attack(("Bob", "Cy")),)
    for text in ("ATTACK Bob,Cy", "ATTACK Bob Cy", "ATTACK Bob , Cy"):
        assert parse(state, "Ann", text) == expected


def test_c033_phase_grammar_lists_what_the_actor_may_use():
    """Phases: the grammar each actor may use feeds the order forms; choices only list what the
    actor already knows."""
    state = make_state(
        person("Ann", SEER, team="red"),
        person("Bob", SEER),
        person("Cy", "C-3"),
        guards={"A": SEER},
    )
    grammar = {spec.keyword: spec for spec in RULES.phase(state).grammar["Ann"]}
    assert set(grammar) == {"USE", "HACK", "DESTROY", "VOTE", "ATTACK"}
    assert grammar["ATTACK"].choices == ("Bob", "GUARD A")
    grammar_bob = {spec.keyword for spec in RULES.phase(state).grammar["Bob"]}
    assert "HACK" not in grammar_bob
