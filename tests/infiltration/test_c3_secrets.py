"""Conformance, part 4: what reports and terminals must not give away, names, NPCs and the
reports of the dead (rules/infiltration.md: Resolution §2 Combat, §3 "A hacked answer must
be plausible", Validity check grammar, §5 Reports; Cast and setup: Names, NPC characters)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import GameSetupError, OrderBlockError, PlayerSpec
from engine.infiltration.facility import COMMON_TERMINALS
from engine.infiltration.rooms import rooms_on_floor
from engine.seat_names import player_names

from tests.infiltration.scenario import (
    BASE,
    RULES,
    bystanders,
    make_state,
    parse,
    person,
    private,
    resolve,
    room_with,
    terminal_report,
    with_variant,
)

pytestmark = pytest.mark.usefixtures(
    "option_variant"
)  # each case under each option set (conftest.py)

T = {
    kind: room_with(kind)
    for kind in ("LOCATOR", "HISTORY", "MAPDATA", "SUPERLOCATOR", "GUARD", "VALIDITY")
}
HANGAR = "H-3"
SEEDS = [f"plausible-{n}" for n in range(150)]


def hacked_answers(state, user, text):
    """The user's hacked report under many game seeds (each seed draws anew)."""
    for seed in SEEDS:
        yield terminal_report(resolve(replace(state, seed=seed), {user: text}), user)


# ---------------------------------------------------------------------- combat reports
def test_c150_a_combat_report_reads_the_same_whether_a_survivor_is_a_sneaker():
    """Combat: a combat report lists the attacks declared by players and NPCs, who died and
    who killed each of them; a guard's automatic attacks are not otherwise listed, so the
    report reads the same whether a surviving character is a Sneaker or not."""

    def witnessed(role):
        state = make_state(
            person("War", "C-3"),
            person("Sam", "C-3", role=role),
            person("Eve", "A-3"),
            *bystanders(),
            guards={"C": "C-3"},
        )
        result = resolve(state, {"War": "ATTACK GUARD C"})
        return private(result, "Sam", "combat"), private(result, "War", "combat")

    as_sneaker, as_hacker = witnessed("sneaker"), witnessed("hacker")
    assert as_sneaker == as_hacker
    assert as_sneaker[0][0]["attacks"] == [["War", "guard C"]]
    assert as_sneaker[0][0]["killers"] == {"guard C": ["War"]}


def test_c151_the_report_names_whose_attacks_counted():
    """Combat: the report names who killed each victim: every attacker whose attack on them
    counted in the tier in which they died (a parried attack does not count; either member of
    a pair of attackers who are not mutual does)."""
    room = "C-3"
    state = make_state(
        person("Ava", room),
        person("Ben", room),
        person("Tom", room),
        person("Eve", "A-3"),
        *bystanders(),
    )
    result = resolve(
        state, {"Ava": "ATTACK Tom, Ben", "Ben": "ATTACK Tom, Ava", "Tom": "ATTACK Ava"}
    )
    report = private(result, "Eve", "combat") or private(result, "Ava", "combat")
    assert report[0]["dead"] == ["Ava", "Tom"]
    # Tom parried Ava's attack, Ben's counted; Ava fell to Ben and Tom, who are not mutual.
    assert report[0]["killers"] == {"Ava": ["Ben", "Tom"], "Tom": ["Ben"]}


# ---------------------------------------------------------------------- validity size
def test_c152_a_validity_statement_holds_at_most_four_facts_and_one_code():
    """Validity check, grammar: a statement holds at most 4 facts and at most one CODE IS fact;
    a longer one is an order error."""
    state = make_state(person("Ann", T["VALIDITY"]), person("Bob", "C-3"), *bystanders())
    four = "Bob IS ALIVE AND Bob HAS STINGER OR NOT Bob IS IN C-3 OR CODE IS 1234"
    assert len(parse(state, "Ann", f"USE VALIDITY {four}")) == 1
    with pytest.raises(OrderBlockError) as caught:
        parse(state, "Ann", f"USE VALIDITY {four} OR HANGAR DOOR IS OPEN")
    assert "at most 4" in str(caught.value)
    with pytest.raises(OrderBlockError) as caught:
        parse(state, "Ann", "USE VALIDITY CODE IS 1234 OR CODE IS 1235")
    assert "at most one CODE IS" in str(caught.value)
    many = " OR ".join(f"CODE IS {n:04d}" for n in range(3000))
    with pytest.raises(OrderBlockError):
        parse(state, "Ann", f"USE VALIDITY {many}")


# ---------------------------------------------------------------------- names
@pytest.mark.parametrize("bad", ["Mary Ann", "d4", "C", "Attack", "7up", "Ann", "guardian"])
def test_c153_the_engine_accepts_only_names_its_orders_can_address(bad):
    """Names: the engine accepts only names that its own orders can address (the roster's
    name rule); anything else is a setup error."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve"]
    with pytest.raises(GameSetupError):
        RULES.new_game([PlayerSpec(n) for n in names] + [PlayerSpec(bad)], "names", with_variant())
    with pytest.raises(GameSetupError):
        RULES.new_game(
            [PlayerSpec(n) for n in names]
            + [PlayerSpec(bad, npc=True, npc_class="warrior", npc_team="neutral")],
            "names",
            with_variant(),
        )
    RULES.new_game([PlayerSpec(n) for n in names], "names", with_variant())


# ---------------------------------------------------------------------- plausible hacks
def test_c154_a_hacked_locator_never_shows_the_target_in_the_users_room_or_gives_itself_away():
    """Terminals, a hacked answer must be plausible, Locator: a room other than the true one and other
    than the user's own room; a target standing in the user's room is shown there."""
    here = T["LOCATOR"]
    state = make_state(
        person("Ann", here), person("Bob", "C-3"), person("Cy", here), *bystanders(), hacked=(here,)
    )
    for report in hacked_answers(state, "Ann", "USE LOCATOR Bob"):
        assert report["room"] not in ("C-3", here, HANGAR)
    for report in hacked_answers(state, "Ann", "USE LOCATOR Cy"):
        assert report["room"] == here


def test_c155_a_hacked_history_never_names_the_user_where_they_never_were():
    """Terminals, a hacked answer must be plausible, History: the user appears only for turns they
    really were in that room; a guard only for a room on its home floor; each named
    character was alive on that turn."""
    here = T["HISTORY"]
    dead = person("Dan", "C-4", alive=False, died_turn=1, cause="combat")
    state = make_state(
        person("Ann", here), person("Bob", "C-3"), dead, *bystanders(), hacked=(here,), turn=3
    )
    state = replace(
        state,
        presence=(
            (1, "C-3", "Ann", BASE["C-3"]),
            (1, "C-3", "Dan", BASE["C-3"]),
            (2, "C-3", "Bob", BASE["C-3"]),
            (3, "C-3", "guard C", BASE["C-3"]),
        ),
    )
    for room in ("C-3", "A-2"):
        for report in hacked_answers(state, "Ann", f"USE HISTORY {room}"):
            assert report["entries"], report
            for turn, who in report["entries"]:
                assert 1 <= turn <= 3
                if who == "Ann":
                    assert (room, turn) == ("C-3", 1)
                if who.startswith("guard "):
                    assert who[-1] == room[0]
                if who == "Dan":
                    assert turn <= 1


def test_c156_hacked_map_data_never_breaks_the_feature_counts_or_what_the_user_saw():
    """Terminals, a hacked answer must be plausible, Map data: a wrong feature drawn only from the twelve
    common terminal types (never a special room or the Commander's terminal); a room the
    user has stood in is shown with the feature the user saw there."""
    here = T["MAPDATA"]
    rooms = ["H-1", "H-3", "H-6", "A-1", here]
    state = make_state(person("Ann", here), *bystanders(), hacked=(here,))
    state = replace(state, presence=((0, "A-1", "Ann", "SWITCH"), (1, here, "Ann", "MAPDATA")))
    for report in hacked_answers(state, "Ann", "USE MAPDATA " + " ".join(rooms)):
        shown = dict(report["rooms"])
        assert shown["A-1"] == "SWITCH" and shown[here] == "MAPDATA"
        for room in ("H-1", "H-3", "H-6"):
            assert shown[room] in COMMON_TERMINALS and shown[room] != BASE[room]


def test_c157_a_hacked_superlocator_never_moves_the_user_or_opens_the_hangar():
    """Terminals, a hacked answer must be plausible, Superlocator: the user and everyone in the user's
    room are shown in the user's room; every other living character in a wrong room that is
    neither the user's room nor the hangar while its door is shut."""
    here = T["SUPERLOCATOR"]
    state = make_state(
        person("Ann", here), person("Cy", here), person("Bob", "C-3"), *bystanders(), hacked=(here,)
    )
    for report in hacked_answers(state, "Ann", "USE SUPERLOCATOR"):
        rooms = report["rooms"]
        assert rooms["Ann"] == here and rooms["Cy"] == here
        for name, room in rooms.items():
            if name not in ("Ann", "Cy"):
                assert room not in (here, HANGAR, state.characters[name].room)
    opened = replace(state, hangar_open=True)
    assert any(
        report["rooms"]["Bob"] == HANGAR
        for report in hacked_answers(opened, "Ann", "USE SUPERLOCATOR")
    )


def test_c158_a_hacked_guard_terminal_never_shows_a_guard_staying():
    """Terminals, a hacked answer must be plausible, Guard: each guard's wrong destination is on its home
    floor and is never the room it stands in."""
    here = T["GUARD"]
    state = make_state(person("Ann", here), *bystanders(), hacked=(here,), guards={"C": "D-5"})
    for seed in SEEDS:
        result = resolve(replace(state, seed=seed), {"Ann": "USE GUARD"})
        report = terminal_report(result, "Ann")
        for floor, room in report["plans"].items():
            guard = result.state.guards[floor]
            assert room in rooms_on_floor(floor) and room != guard.room and room != guard.plan


# ---------------------------------------------------------------------- NPCs
def test_c159_an_npc_gets_a_players_reports_and_order_forms():
    """NPC characters: every NPC's arrival report, terminal results, combat report and order
    form go to the host exactly as a player's would go to that player."""
    specs = [PlayerSpec(n) for n in player_names(6)] + [
        PlayerSpec("Raiden", npc=True, npc_class="engineer", npc_team="neutral")
    ]
    state = RULES.new_game(specs, "npc", with_variant())
    result = RULES.resolve(state, {})
    kinds = [event.kind for event in result.private["Raiden"]]
    assert kinds == ["role", "arrival"]
    grammar = {spec.keyword for spec in RULES.phase(result.state).grammar["Raiden"]}
    assert {"MOVE", "STAY", "CODE"} <= grammar
    npc = person("Raiden", T["LOCATOR"], team="neutral", role="engineer", npc=True)
    scene = make_state(npc, person("Bob", T["LOCATOR"]), *bystanders())
    result = resolve(scene, {"Raiden": ["USE LOCATOR Bob", "ATTACK Bob"]})
    assert private(result, "Raiden", "terminal") and private(result, "Raiden", "combat")


def test_c160_a_red_npc_is_a_fellow_red_and_gets_the_occupancy_report():
    """NPC characters: a Red NPC is a fellow Red: Red players see it in their list of fellow
    Reds (marked as an NPC), and the host receives the Reds' occupancy report for it."""
    specs = [PlayerSpec(n) for n in player_names(6)] + [
        PlayerSpec("Raiden", npc=True, npc_class="renegade", npc_team="red")
    ]
    result = RULES.resolve(RULES.new_game(specs, "red-npc", with_variant()), {})
    red = next(c.name for c in result.state.characters.values() if c.team == "red" and not c.npc)
    role = private(result, red, "role")[0]
    assert "Raiden" in role["teammates"] and role["teammate_npcs"] == ["Raiden"]
    me = RULES.view(result.state, red)["me"]
    assert "Raiden" in me["teammates"] and me["teammate_npcs"] == ["Raiden"]
    assert private(result, "Raiden", "role")[0]["teammates"] == [red]
    assert private(result, "Raiden", "red_occupancy") == private(result, red, "red_occupancy")
    assert RULES.view(result.state, "Raiden")["me"]["occupancy"]


# ---------------------------------------------------------------------- reports of the dead
def test_c161_a_lynched_player_is_told_so_in_their_own_report():
    """Reports: every player alive when the resolution began receives a private report,
    including their own death by the lynch: a lynched player is told so."""
    state = make_state(person("Ann", "A-2"), *bystanders(5))
    result = resolve(state, {f"Extra{i}": "VOTE Ann" for i in range(1, 5)})
    assert private(result, "Ann", "you_died") == [
        {"turn": 1, "cause": "lynch", "room": "A-2", "killers": []}
    ]


def test_c162_a_dead_players_last_report_says_how_they_died_and_then_reports_stop():
    """Reports: a dead player's last report says plainly that they died and how; after it
    they receive no more reports."""
    gas = room_with("GAS")
    state = make_state(
        person("Ann", "C-3"),
        person("Rex", "C-3", team="red"),
        person("Gus", gas),
        person("Vic", "D-3", role="sneaker"),
        *bystanders(5),
        guards={"D": "D-3"},
    )
    result = resolve(state, {"Rex": "ATTACK Ann", "Gus": "USE GAS D-3"})
    assert private(result, "Ann", "you_died")[-1] == {
        "turn": 1,
        "cause": "combat",
        "room": "C-3",
        "killers": ["Rex"],
    }
    assert result.private["Ann"][-1].kind == "you_died"
    assert private(result, "Vic", "you_died") == [
        {"turn": 1, "cause": "gas", "room": "D-3", "killers": []}
    ]
    later = RULES.resolve(result.state, {})
    later = RULES.resolve(later.state, {})
    assert not later.private.get("Ann") and not later.private.get("Vic")
