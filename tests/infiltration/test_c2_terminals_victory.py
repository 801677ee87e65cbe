"""Conformance, part 3: terminals, gas, victory, NPCs and the host kill
(rules/infiltration.md: Resolution §3-§5; Victory; Cast and setup, NPC characters)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalOrderError, OrderBlockError
from engine.infiltration.rooms import ROOMS

from tests.infiltration.scenario import (
    BASE,
    RULES,
    bystanders,
    make_state,
    parse,
    person,
    private,
    public,
    resolve,
    room_with,
    terminal_report,
)

pytestmark = pytest.mark.usefixtures(
    "option_variant"
)  # each case under each option set (conftest.py)

T = {
    kind: room_with(kind)
    for kind in (
        "SEER",
        "PSYCHIC",
        "LOCATOR",
        "HISTORY",
        "MAPDATA",
        "SUPERLOCATOR",
        "MESSAGE",
        "GAS",
        "GUARD",
        "VALIDITY",
        "LOCK",
        "SWITCH",
    )
}
T["COMMANDER"] = "H-6"
LAB, GENERALS, HANGAR, GEN1, GEN2 = "H-1", "H-2", "H-3", "H-4", "H-5"


def at(terminal, *others, hacked=False, turn=1, user="Ann", role="warrior", bob="warrior", **extra):
    """A state with `user` at the terminal, Bob (Green) in C-3, Rex (Red) in D-3, bystanders."""
    room = T[terminal]
    return make_state(
        person(user, room, role=role),
        person("Bob", "C-3", role=bob),
        person("Rex", "D-3", team="red"),
        *others,
        *bystanders(),
        hacked=(room,) if hacked else (),
        turn=turn,
        **extra,
    )


def use(terminal, text, hacked=False, seed_turn=1, **extra):
    state = at(terminal, hacked=hacked, turn=seed_turn, **extra)
    result = resolve(state, {"Ann": text})
    return result, terminal_report(result, "Ann")


# ---------------------------------------------------------------------- each terminal
def test_c100_seer():
    """Seer: that player's team; hacked: the other team (Neutral -> Red)."""
    assert use("SEER", "USE SEER Rex")[1]["team"] == "red"
    assert use("SEER", "USE SEER Rex", hacked=True)[1]["team"] == "green"
    assert use("SEER", "USE SEER Bob", hacked=True)[1]["team"] == "red"
    state = at("SEER", person("Npc", "E-3", team="neutral", role="engineer", npc=True))
    assert terminal_report(resolve(state, {"Ann": "USE SEER Npc"}), "Ann")["team"] == "neutral"
    state = at("SEER", person("Npc", "E-3", team="neutral", role="engineer", npc=True), hacked=True)
    assert terminal_report(resolve(state, {"Ann": "USE SEER Npc"}), "Ann")["team"] == "red"


def test_c101_psychic():
    """Psychic: the number of living Red players; hacked: a different number in 0…initial Reds.
    NPCs count for nothing."""
    extra = person("RedNpc", "E-3", team="red", role="renegade", npc=True)
    state = at("PSYCHIC", extra)
    assert terminal_report(resolve(state, {"Ann": "USE PSYCHIC"}), "Ann")["reds"] == 1
    for turn in range(1, 30):
        state = at("PSYCHIC", hacked=True, turn=turn, initial_reds=3)
        assert terminal_report(resolve(state, {"Ann": "USE PSYCHIC"}), "Ann")["reds"] in (0, 2, 3)


def test_c102_locator():
    """Locator: that player's room; hacked: a different random room."""
    assert use("LOCATOR", "USE LOCATOR Bob")[1]["room"] == "C-3"
    assert use("LOCATOR", "USE LOCATOR Bob", hacked=True)[1]["room"] != "C-3"


def test_c103_history():
    """History: every (turn, character) that was in the room from turn 1 to now; hacked:
    max(1, true count) entries, drawn at random, not equal to the truth."""
    state = at("HISTORY", turn=3)
    state = replace(
        state,
        presence=(
            (0, "C-3", "Bob", "X"),
            (1, "C-3", "Bob", "X"),
            (2, "C-3", "guard C", "X"),
            (2, "C-3", "Rex", "X"),
        ),
    )
    report = terminal_report(resolve(state, {"Ann": "USE HISTORY C-3"}), "Ann")
    assert report["entries"] == [[1, "Bob"], [2, "Rex"], [2, "guard C"]]
    hacked = state.with_slot(T["HISTORY"], replace(state.layout[T["HISTORY"]], hacked=True))
    report = terminal_report(resolve(hacked, {"Ann": "USE HISTORY C-3"}), "Ann")
    assert len(report["entries"]) == 3 and report["entries"] != [
        [1, "Bob"],
        [2, "Rex"],
        [2, "guard C"],
    ]
    empty = terminal_report(resolve(hacked, {"Ann": "USE HISTORY A-1"}), "Ann")
    assert len(empty["entries"]) == 1


def test_c104_mapdata():
    """Map data: each room's feature; hacked: a wrong feature for each room."""
    rooms = ["H-1", "H-3", "A-1", "A-2", "B-5"]
    honest = dict(use("MAPDATA", "USE MAPDATA " + " ".join(rooms))[1]["rooms"])
    assert honest == {room: BASE[room] for room in rooms} and honest["H-3"] == "HANGAR"
    hacked = dict(use("MAPDATA", "USE MAPDATA " + " ".join(rooms), hacked=True)[1]["rooms"])
    assert all(hacked[r] != honest[r] for r in rooms)


def test_c105_superlocator():
    """Superlocator: every living character's room (guards excluded); hacked: every living
    character in a wrong room, except the user and those with them, who are shown where the
    user sees them."""
    honest = use("SUPERLOCATOR", "USE SUPERLOCATOR")[1]["rooms"]
    assert honest["Bob"] == "C-3" and honest["Rex"] == "D-3" and honest["Ann"] == T["SUPERLOCATOR"]
    assert not any(name.startswith("guard") for name in honest)
    hacked = use("SUPERLOCATOR", "USE SUPERLOCATOR", hacked=True)[1]["rooms"]
    assert set(hacked) == set(honest) and hacked["Ann"] == honest["Ann"]
    assert all(hacked[n] != honest[n] for n in honest if n != "Ann")


def test_c106_guard_terminal():
    """Guard terminal: every living guard's next destination (planned when the resolution begins);
    hacked: a wrong destination for each."""
    result, report = use("GUARD", "USE GUARD", dead_guards=("B",))
    plans = {f: g.plan for f, g in result.state.guards.items() if g.alive}
    assert report["plans"] == plans and "B" not in report["plans"]
    # The next movement takes the guards exactly there.
    moved = resolve(result.state)
    assert all(moved.state.guards[f].room == room for f, room in plans.items())
    hacked_result, hacked = use("GUARD", "USE GUARD", hacked=True)
    truth = {f: g.plan for f, g in hacked_result.state.guards.items() if g.alive}
    assert all(hacked["plans"][f] != truth[f] for f in truth)


def test_c107_validity():
    """Validity check: true or false; hacked: the opposite."""
    assert use("VALIDITY", "USE VALIDITY Bob IS IN C-3")[1]["true"] is True
    assert use("VALIDITY", "USE VALIDITY Bob IS IN C-3", hacked=True)[1]["true"] is False
    assert (
        use("VALIDITY", "USE VALIDITY CODE IS 1234 AND NOT HANGAR DOOR IS OPEN")[1]["true"] is True
    )


def test_c108_anonymous_message():
    """Anonymous message: published unsigned in the public post; hacked: not published, and the
    user is told it was (the same report)."""
    honest_result, honest = use("MESSAGE", "USE MESSAGE meet me in C-3")
    hacked_result, hacked = use("MESSAGE", "USE MESSAGE meet me in C-3", hacked=True)
    assert honest == hacked
    assert public(honest_result, "anonymous_message") == [{"turn": 1, "text": "meet me in C-3"}]
    assert public(hacked_result, "anonymous_message") == []


def test_c109_gas():
    """Gas: everyone in the room dies in step 4, guards too; hacked: nothing, told it worked."""
    # Bob is a Sneaker here, so guard C does not attack him in combat first.
    honest_result, honest = use("GAS", "USE GAS C-3", guards={"C": "C-3"}, bob="sneaker")
    hacked_result, hacked = use(
        "GAS", "USE GAS C-3", hacked=True, guards={"C": "C-3"}, bob="sneaker"
    )
    assert honest == hacked == {"terminal": "GAS", "room": "C-3"}
    assert (
        not honest_result.state.characters["Bob"].alive
        and honest_result.state.characters["Bob"].cause == "gas"
    )
    assert not honest_result.state.guards["C"].alive
    assert private(honest_result, "Bob", "gassed")[0]["dead"] == ["Bob", "guard C"]
    assert public(honest_result, "deaths")[0]["names"] == ["Bob"]
    assert hacked_result.state.characters["Bob"].alive and hacked_result.state.guards["C"].alive


def test_c110_commander():
    """Commander's terminal: those guards go there next move; hacked: ignored, told it worked."""
    honest_result, honest = use("COMMANDER", "USE COMMANDER A=B-2 C=E-5")
    hacked_result, hacked = use("COMMANDER", "USE COMMANDER A=B-2 C=E-5", hacked=True)
    assert honest == hacked
    after = resolve(honest_result.state).state
    assert after.guards["A"].room == "B-2" and after.guards["C"].room == "E-5"
    after = resolve(hacked_result.state).state
    assert after.guards["A"].room[0] == "A" and after.guards["C"].room[0] == "C"


def test_c111_lock():
    """Electronic lock: the room is locked for next turn's movement; hacked: ignored."""
    honest_result, honest = use("LOCK", "USE LOCK C-3")
    hacked_result, hacked = use("LOCK", "USE LOCK C-3", hacked=True)
    assert (
        honest == hacked
        and honest_result.state.locks == {"C-3": 1}
        and hacked_result.state.locks == {}
    )


def test_c112_switch():
    """Switch: if the room holds a terminal and is not the user's own, the two terminals (with
    their hacked/destroyed state) swap rooms; otherwise nothing; hacked: ignored."""
    switch = T["SWITCH"]
    result, report = use("SWITCH", "USE SWITCH C-3", destroyed=("C-3",))
    layout = result.state.layout
    assert layout[switch].kind == BASE["C-3"] and layout[switch].destroyed
    assert layout["C-3"].kind == "SWITCH" and not layout["C-3"].destroyed
    hacked_result, hacked = use("SWITCH", "USE SWITCH C-3", hacked=True)
    assert hacked == report and hacked_result.state.layout[switch].kind == "SWITCH"
    special = use("SWITCH", "USE SWITCH H-1")[0].state.layout
    assert special["H-1"].kind == "WEAPONS LAB" and special[switch].kind == "SWITCH"
    own = use("SWITCH", f"USE SWITCH {switch}")[0].state.layout
    assert own[switch].kind == "SWITCH"


HONEST_AND_HACKED = [
    ("SEER", "USE SEER Bob"),
    ("PSYCHIC", "USE PSYCHIC"),
    ("LOCATOR", "USE LOCATOR Rex"),
    ("HISTORY", "USE HISTORY C-3"),
    ("MAPDATA", "USE MAPDATA A-1 B-2 C-3 D-4 H-3"),
    ("SUPERLOCATOR", "USE SUPERLOCATOR"),
    ("GUARD", "USE GUARD"),
    ("VALIDITY", "USE VALIDITY Rex IS ALIVE"),
]


@pytest.mark.parametrize("terminal,text", HONEST_AND_HACKED)
def test_c113_hacked_information_never_equals_honest(terminal, text, rule_options):
    """Terminals: the eight information terminals' hacked results never equal the honest ones."""
    for turn in range(1, 41):
        honest = use(terminal, text, seed_turn=turn, initial_reds=2, options=rule_options)[1]
        hacked = use(
            terminal, text, hacked=True, seed_turn=turn, initial_reds=2, options=rule_options
        )[1]
        assert honest != hacked, (terminal, turn)


@pytest.mark.parametrize(
    "terminal,text",
    [
        ("MESSAGE", "USE MESSAGE hi"),
        ("GAS", "USE GAS C-3"),
        ("COMMANDER", "USE COMMANDER A=A-1"),
        ("LOCK", "USE LOCK C-3"),
        ("SWITCH", "USE SWITCH C-3"),
    ],
)
def test_c114_effect_terminals_report_the_same_when_hacked(terminal, text, rule_options):
    """Terminals: for Message, Gas, Commander's, Lock and Switch the user's report is the same
    honest or hacked, and the effect is absent when hacked."""
    honest_result, honest = use(terminal, text, options=rule_options)
    hacked_result, hacked = use(terminal, text, hacked=True, options=rule_options)
    assert honest == hacked
    untouched = resolve(at(terminal, hacked=True, options=rule_options)).state
    for attribute in ("locks", "layout", "characters", "guards"):
        assert getattr(hacked_result.state, attribute) == getattr(untouched, attribute)
    assert public(hacked_result, "anonymous_message") == []


# ---------------------------------------------------------------------- step ordering
def test_c115_uses_see_the_terminals_as_the_step_began():
    """Resolution §3: every use sees the terminals as they were when the step began."""
    seer = T["SEER"]
    state = make_state(
        person("Ann", seer), person("Rex", seer, team="red"), person("Bob", "C-3"), *bystanders()
    )
    result = resolve(state, {"Ann": "USE SEER Rex", "Rex": "HACK"})
    assert terminal_report(result, "Ann")["team"] == "red"
    assert result.state.layout[seer].hacked


def test_c116_restore_undoes_a_hack_of_the_same_step():
    """Resolution §3: hacks and destroys, then restores and repairs, so a restore undoes a hack
    made in the same step; restoring a sound terminal does nothing."""
    seer = T["SEER"]
    state = make_state(
        person("Hal", seer, role="hacker"), person("Rex", seer, team="red"), *bystanders()
    )
    result = resolve(state, {"Hal": "RESTORE", "Rex": "HACK"})
    assert not result.state.layout[seer].hacked
    result = resolve(state, {"Hal": "RESTORE"})
    assert result.state.layout[seer] == state.layout[seer]
    assert result.state.actions["restore"] == 1


def test_c117_destroy_and_repair():
    """Terminals: a destroyed terminal cannot be used; only an Engineer can REPAIR it."""
    seer = T["SEER"]
    state = make_state(
        person("Rex", seer, team="red"),
        person("Eng", "C-3", team="green", role="engineer", npc=True),
        *bystanders(),
        dead_guards="ABCDEFGH",
    )
    state = resolve(state, {"Rex": "DESTROY"}).state
    assert state.layout[seer].destroyed
    state = resolve(state, {"Eng": f"MOVE {seer}"}).state
    with pytest.raises(OrderBlockError, match="destroyed"):
        parse(state, "Eng", "USE SEER Rex")
    hal = make_state(person("Hal", seer, role="hacker"), destroyed=(seer,))
    with pytest.raises(OrderBlockError, match="only an Engineer can REPAIR"):
        parse(hal, "Hal", "RESTORE")
    state = resolve(state, {"Eng": "REPAIR"}).state
    assert not state.layout[seer].destroyed


def test_c118_commander_resolves_before_the_guard_terminal():
    """Resolution §3: among uses, the Commander's terminal resolves before the Guard terminal,
    so the Guard terminal shows the real next moves."""
    state = make_state(person("Cmd", "H-6"), person("Gu", T["GUARD"]), *bystanders())
    result = resolve(state, {"Cmd": "USE COMMANDER C=E-5", "Gu": "USE GUARD"})
    assert terminal_report(result, "Gu")["plans"]["C"] == "E-5"


def test_c119_commander_conflicts():
    """Resolution §3: if several users give one guard different destinations, that guard keeps
    its own plan; each user is told the order was carried out."""
    state = make_state(person("Ann", "H-6"), person("Bob", "H-6"), *bystanders())
    conflict = resolve(
        state, {"Ann": "USE COMMANDER C=E-5 D=D-1", "Bob": "USE COMMANDER C=E-6 D=D-1"}
    )
    assert conflict.state.guards["C"].plan[0] == "C" and conflict.state.guards["D"].plan == "D-1"
    assert terminal_report(conflict, "Ann")["destinations"] == [["C", "E-5"], ["D", "D-1"]]
    assert terminal_report(conflict, "Bob")["destinations"] == [["C", "E-6"], ["D", "D-1"]]


def test_c120_switch_ordering():
    """Resolution §3: switches one at a time in the order of the users' rooms (A-1 first), then
    of the users' names, each on the layout left by the one before; a switch applies only if its
    user's room still holds the switch terminal that was used."""
    first, second = [room for room in ROOMS if BASE[room] == "SWITCH" and room[2] != "8"][:2]
    # Ann's switch (earlier room) moves her switch terminal to C-3; then Bob's switch, in the
    # later room, swaps with C-3, which now holds Ann's switch terminal.
    state = make_state(person("Ann", first), person("Bob", second), *bystanders())
    result = resolve(state, {"Ann": "USE SWITCH C-3", "Bob": "USE SWITCH C-3"})
    layout = result.state.layout
    assert layout[first].kind == BASE["C-3"]  # C-3's terminal came to Ann's room
    assert (
        layout[second].tid == state.layout[first].tid
        and layout["C-3"].tid == state.layout[second].tid
    )
    # Two users in one room: by name; the second no longer has the switch terminal it used.
    state = make_state(person("Ann", first), person("Bob", first), *bystanders())
    result = resolve(state, {"Bob": "USE SWITCH C-3", "Ann": "USE SWITCH D-3"})
    assert (
        result.state.layout["D-3"].kind == "SWITCH"
        and result.state.layout["C-3"].kind == BASE["C-3"]
    )


def test_c121_orders_of_the_dead_are_void():
    """Resolution §3: orders of characters not alive when this step begins are void."""
    seer = T["LOCK"]
    state = make_state(
        person("Ann", seer, role="hacker"), person("Rex", seer, team="red"), *bystanders()
    )
    result = resolve(state, {"Ann": "USE LOCK C-3", "Rex": "ATTACK Ann"})
    assert not result.state.characters["Ann"].alive and result.state.locks == {}
    assert not private(result, "Ann", "terminal")


def test_c122_used_counts_only_uses():
    """Validity check: USED counts only uses that took place in step 3, hacked or not; never
    restore, repair, hack or destroy."""
    seer = T["SEER"]
    state = make_state(
        person("Ann", seer),
        person("Rex", seer, team="red"),
        person("Val", T["VALIDITY"]),
        *bystanders(),
        hacked=(seer,),
        dead_guards="ABCDEFGH",
    )
    state = resolve(state, {"Ann": "USE SEER Rex", "Rex": "DESTROY"}).state
    state = resolve(state).state
    result = resolve(
        state, {"Val": "USE VALIDITY Ann USED SEER ON TURN 1 AND NOT Rex USED SEER ON TURN 1"}
    )
    assert terminal_report(result, "Val")["true"] is True


def test_c123_terminals_silenced_by_alert_except_sneakers():
    """Alert: under Alert no terminal action happens except by Sneakers and Renegades."""
    lock = T["LOCK"]
    state = make_state(
        person("Sam", lock, role="sneaker"),
        person("Npc", lock, team="neutral", role="renegade", npc=True),
        *bystanders(),
        guards={lock[0]: lock},
        alert_floors=(lock[0],),
    )
    result = resolve(state, {"Sam": "USE LOCK C-3", "Npc": "USE LOCK D-3"})
    assert result.state.locks == {"C-3": 1, "D-3": 1}


# ---------------------------------------------------------------------- victory
def mission(*extra, npc_runner=False):
    runner = person("Gen2", GEN2, npc=npc_runner, team="neutral" if npc_runner else "green")
    return make_state(
        person("Car1", "A-2", stinger=True),
        person("Car2", "A-3", stinger=True, team="red"),
        person("Gen1", GEN1),
        runner,
        *extra,
        *bystanders(),
        step="movement",
        hangar_open=True,
    )


def test_c130_ghost_destroyed():
    """Victory: both Generator rooms hold a living player each and two living players carrying
    Stingers are in the hangar: Greens win at once, with no decision phase; a Red who takes
    part counts."""
    result = resolve(mission(), {"Car1": f"MOVE {HANGAR}", "Car2": f"MOVE {HANGAR}"})
    assert result.state.result.path == "ghost-destroyed" and result.state.result.winners == (
        "green",
    )
    assert RULES.phase(result.state) is None and public(result, "result")


def test_c131_npcs_do_not_count_for_the_mission():
    """Victory: NPCs do not count."""
    result = resolve(mission(npc_runner=True), {"Car1": f"MOVE {HANGAR}", "Car2": f"MOVE {HANGAR}"})
    assert result.state.result is None


def test_c132_reds_win_when_too_few_greens_are_left():
    """Victory: Reds win when at least one Red player is alive and fewer than four Green players
    are alive (checked at the end of the resolution)."""
    state = make_state(
        person("Rex", "C-3", team="red"),
        person("Ann", "C-3", role="hacker"),
        *bystanders(2),
        person("Bob", "A-2"),
    )
    result = resolve(state, {"Rex": "ATTACK Ann"})
    assert result.state.result.path == "greens-too-few" and result.state.result.winners == ("red",)
    assert result.state.result.players == ("Rex",)


def test_c133_draw_when_no_red_and_too_few_greens():
    """Victory: a draw when no Red player is alive and fewer than four Green players are alive."""
    state = make_state(
        person("Rex", "C-3", team="red"),
        person("Ann", "C-3"),
        person("Bob", "C-3"),
        *bystanders(1),
        person("Cy", "A-2"),
    )
    result = resolve(
        state, {"Ann": "ATTACK Rex, Bob", "Cy": "VOTE Rex", "Bob": "VOTE Rex", "Extra1": "VOTE Rex"}
    )
    assert result.state.result.path == "draw-too-few" and result.state.result.winners == ()


@pytest.mark.parametrize("limit", [30, 2])
def test_c134_turn_limit_option(limit):
    """Victory: turn limit (option, default 30): if turn N's resolution ends without a result,
    the game is a draw."""
    state = make_state(
        person("Rex", "C-3", team="red"), *bystanders(5), turn=2, options={"turn_limit": limit}
    )
    result = resolve(state)
    if limit == 2:
        assert result.state.result.path == "draw-turn-limit"
    else:
        assert result.state.result is None and result.state.phase_id == "T3-movement"


def test_c135_victory_is_checked_after_the_lynch():
    """Victory, checked after the lynch: the game ends before combat."""
    state = make_state(person("Rex", "C-3", team="red"), person("Ann", "C-3"), *bystanders(3))
    result = resolve(state, {"Rex": "VOTE Extra1\nATTACK Ann", "Extra2": "VOTE Extra1"})
    assert result.state.result.path == "greens-too-few"
    assert result.state.characters["Ann"].alive and not private(result, "Ann", "combat")


def test_c136_host_kill():
    """Host kill: takes effect at once, leaves a corpse, voids pending orders, is announced with
    the host's reason, and is followed at once by a victory check."""
    state = make_state(person("Rex", "C-3", team="red"), *bystanders(4))
    result = RULES.host_kill(state, "Extra1", "left the game")
    assert public(result, "host_kill")[0]["reason"] == "left the game"
    assert result.state.characters["Extra1"].cause == "host"
    assert result.state.result.path == "greens-too-few"
    state = make_state(person("Rex", "C-3", team="red"), *bystanders(5))
    result = RULES.host_kill(state, "Rex", "inactive")
    assert result.state.result is None
    with pytest.raises(OrderBlockError):
        RULES.parse_orders(result.state, "Rex", ["VOTE Extra1"])


# ---------------------------------------------------------------------- NPCs
def test_c140_npcs_never_vote_and_cannot_be_lynched():
    """NPC characters: they never vote, cannot be lynched, and count for nothing in NO REDS LEFT."""
    state = make_state(person("Npc", "E-3", team="red", role="renegade", npc=True), *bystanders(5))
    with pytest.raises(OrderBlockError) as caught:
        parse(state, "Npc", "VOTE Extra1")
    assert isinstance(caught.value.errors[0], IllegalOrderError)
    result = resolve(state, {n: "VOTE NO REDS LEFT" for n in [f"Extra{i}" for i in range(1, 6)]})
    assert result.state.result.path == "no-reds-left"
    assert "VOTE" not in {s.keyword for s in RULES.phase(state).grammar["Npc"]}


def test_c141_npcs_are_characters_wherever_characters_are_seen_or_fought():
    """NPC characters: they are characters in rooms, reports, locators and combat."""
    state = make_state(
        person("Ann", T["SUPERLOCATOR"]),
        person("Npc", T["SUPERLOCATOR"], team="red", role="renegade", npc=True),
        *bystanders(4),
    )
    result = resolve(state, {"Ann": "USE SUPERLOCATOR", "Npc": "ATTACK Ann"})
    assert not result.state.characters["Ann"].alive
    state = make_state(
        person("Ann", "A-2"),
        person("Npc", "C-3", team="neutral", role="engineer", npc=True),
        *bystanders(4),
        step="movement",
    )
    result = resolve(state, {"Ann": "MOVE C-3"})
    assert private(result, "Ann", "arrival")[0]["present"] == ["Npc"]
    assert private(result, "Npc", "arrival")[0]["present"] == ["Ann"]


def test_c137_the_inner_door_needs_both_generators_and_two_stingers():
    """Victory: both Power Generator rooms must hold a living player (that opens the inner,
    electromagnetic door) and at least two living players with Stingers must be in the hangar."""
    one_generator = resolve(
        mission(), {"Car1": f"MOVE {HANGAR}", "Car2": f"MOVE {HANGAR}", "Gen2": "MOVE A-6"}
    )
    assert one_generator.state.result is None
    state = mission()
    state = state.with_character(replace(state.characters["Car2"], stinger=False))
    one_stinger = resolve(state, {"Car1": f"MOVE {HANGAR}", "Car2": f"MOVE {HANGAR}"})
    assert one_stinger.state.result is None and one_stinger.state.characters["Car2"].room == HANGAR


# ---------------------------------------------------------------------- audit additions
def test_c142_a_hacked_result_does_not_depend_on_anyone_elses_terminal_use():
    """Terminals: hacked results ("the user cannot tell") and views as the only gate; a
    player's hacked result is drawn for them alone, so whether another player used a
    terminal (a hidden fact) never changes it."""
    first, second = [room for room in ROOMS if BASE[room] == "LOCATOR"][:2]
    for turn in range(1, 13):
        state = make_state(
            person("Ann", first),
            person("Zed", second),
            person("Bob", "C-3"),
            *bystanders(),
            hacked=(first, second),
            turn=turn,
        )
        both = resolve(state, {"Ann": "USE LOCATOR Bob", "Zed": "USE LOCATOR Bob"})
        alone = resolve(state, {"Zed": "USE LOCATOR Bob"})
        assert terminal_report(both, "Zed") == terminal_report(alone, "Zed")
        assert terminal_report(alone, "Zed")["room"] != "C-3"


def test_c143_the_order_of_anonymous_messages_does_not_tell_who_sent_them():
    """Reports §5: anonymous messages are published "in an order drawn from the phase's
    generator, so that no order leaks a room or a sender": the same two texts sent by the
    same two players, either way round, are published in the same order."""
    first, second = [room for room in ROOMS if BASE[room] == "MESSAGE"][:2]
    state = make_state(person("Ann", first), person("Zed", second), *bystanders())
    for turn in range(1, 9):
        state = replace(state, turn=turn)
        one = resolve(state, {"Ann": "USE MESSAGE alpha", "Zed": "USE MESSAGE omega"})
        other = resolve(state, {"Ann": "USE MESSAGE omega", "Zed": "USE MESSAGE alpha"})
        texts = [m["text"] for m in public(one, "anonymous_message")]
        assert sorted(texts) == ["alpha", "omega"]
        assert texts == [m["text"] for m in public(other, "anonymous_message")]
