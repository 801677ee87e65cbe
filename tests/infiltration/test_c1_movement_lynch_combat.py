"""Conformance, part 2: movement, guards, arrival, Alert, lynch and combat
(rules/infiltration.md: Movement; Guards; Arrival; Alert; Resolution §1-§2)."""

from __future__ import annotations

import pytest

from engine.core import phase_rng
from engine.infiltration.steps.guards import plan_guards
from engine.infiltration.rooms import rooms_on_floor

from tests.infiltration.scenario import (
    RULES,
    bystanders,
    make_state,
    parse,
    person,
    private,
    public,
    resolve,
    room_with,
)

pytestmark = pytest.mark.usefixtures(
    "option_variant"
)  # each case under each option set (conftest.py)

SEER, HISTORY = room_with("SEER"), room_with("HISTORY")
LAB, GENERALS, HANGAR, GEN1, GEN2 = "H-1", "H-2", "H-3", "H-4", "H-5"


def moved(state, orders=None):
    return resolve(state, orders or {})


# ---------------------------------------------------------------------- movement
def test_c040_move_stay_and_silence():
    """Movement: any room may be chosen, or STAY; a player who sends no orders stays."""
    state = make_state(
        person("Ann", "A-2"), person("Bob", "B-2"), person("Cy", "C-2"), step="movement"
    )
    result = moved(state, {"Ann": "MOVE D-4", "Bob": "STAY"})
    rooms = {n: c.room for n, c in result.state.characters.items()}
    assert rooms == {"Ann": "D-4", "Bob": "B-2", "Cy": "C-2"}
    assert private(result, "Ann", "arrival")[0]["movement"] == "moved"
    assert private(result, "Cy", "arrival")[0]["movement"] == "stayed"


def test_c041_lock_timing():
    """Movement, electronic lock (deliberate): a lock set during turn t's resolution holds
    during turn t+1's movement (nobody enters, nobody inside leaves) and expires when turn
    t+2's movement opens."""
    lock = room_with("LOCK")
    state = make_state(
        person("Ann", lock), person("Bob", "C-3"), person("Cy", "D-3"), *bystanders(), turn=1
    )
    state = resolve(state, {"Ann": "USE LOCK C-3"}).state  # set in turn 1
    assert state.phase_id == "T2-movement" and state.locks == {"C-3": 1}
    result = moved(state, {"Bob": "MOVE D-2", "Cy": "MOVE C-3"})  # turn 2 movement: holds
    assert result.state.characters["Bob"].room == "C-3"
    assert result.state.characters["Cy"].room == "D-3"
    assert private(result, "Bob", "arrival")[0]["movement"] == "locked-in"
    assert private(result, "Cy", "arrival")[0]["movement"] == "locked-out"
    assert private(result, "Bob", "arrival")[0]["locked"] is True
    state = resolve(result.state).state  # turn 2 decision
    assert state.phase_id == "T3-movement" and state.locks == {}
    result = moved(state, {"Bob": "MOVE D-2", "Cy": "MOVE C-3"})
    assert (
        result.state.characters["Bob"].room == "D-2" and result.state.characters["Cy"].room == "C-3"
    )


def test_c042_locks_do_not_affect_guards():
    """Movement: locks do not affect guards."""
    state = make_state(
        person("Ann", "A-2"),
        step="movement",
        guards={"C": "C-3"},
        plans={"C": "C-4"},
        locks={"C-3": 0, "C-4": 0},
    )
    assert moved(state).state.guards["C"].room == "C-4"


def test_c043_hangar_outer_door():
    """Movement, GHOST Hangar: a move with the correct CODE opens the door for good, and every
    remaining move into the hangar that turn succeeds; with no code or a wrong one the
    player stays and is told the door did not open; once open, anyone enters without a code."""
    state = make_state(
        person("Ann", "A-2"), person("Bob", "B-2"), person("Cy", "C-2"), step="movement"
    )
    result = moved(state, {"Ann": "MOVE H-3", "Bob": "MOVE H-3\nCODE 9999"})
    assert not result.state.hangar_open
    assert {private(result, n, "arrival")[0]["movement"] for n in ("Ann", "Bob")} == {"door-shut"}
    result = moved(
        state, {"Ann": "MOVE H-3", "Bob": "MOVE H-3\nCODE 9999", "Cy": "MOVE H-3\nCODE 1234"}
    )
    assert result.state.hangar_open
    assert all(result.state.characters[n].room == HANGAR for n in ("Ann", "Bob", "Cy"))
    later = make_state(person("Dee", "D-2"), step="movement", hangar_open=True)
    assert moved(later, {"Dee": "MOVE H-3"}).state.characters["Dee"].room == HANGAR


def test_c044_locks_are_judged_before_the_door():
    """Movement: electronic locks first (a blocked move never reaches the door)."""
    state = make_state(
        person("Ann", "A-2"), person("Bob", "B-2"), step="movement", locks={"A-2": 0}
    )
    result = moved(state, {"Ann": "MOVE H-3\nCODE 1234", "Bob": "MOVE H-3"})
    assert not result.state.hangar_open
    assert private(result, "Ann", "arrival")[0]["movement"] == "locked-in"
    assert private(result, "Bob", "arrival")[0]["movement"] == "door-shut"


def test_c045_a_locked_hangar_stays_shut_even_with_the_code():
    """Movement: locks first; a locked hangar cannot be entered."""
    state = make_state(person("Ann", "A-2"), step="movement", locks={HANGAR: 0})
    result = moved(state, {"Ann": "MOVE H-3\nCODE 1234"})
    assert (
        private(result, "Ann", "arrival")[0]["movement"] == "locked-out"
        and not result.state.hangar_open
    )


# ---------------------------------------------------------------------- guards
def test_c050_guard_plans():
    """Guards: a uniformly random room on the home floor other than its current room; a guard
    off its home floor plans a room on its home floor."""
    state = make_state(person("Ann", "A-2"), guards={"B": "E-5"})
    seen = set()
    for seed in range(200):
        planned = plan_guards(state, phase_rng(seed, "T1-decision", "guards"))
        assert planned.guards["A"].plan in rooms_on_floor("A") and planned.guards["A"].plan != "A-8"
        assert planned.guards["B"].plan in rooms_on_floor("B")
        seen.add(planned.guards["A"].plan)
    assert len(seen) == 7


def test_c051_guards_leave_before_players_arrive():
    """Guards: a guard and a player who swap rooms never meet."""
    state = make_state(
        person("Ann", "C-3"), step="movement", guards={"C": "C-4"}, plans={"C": "C-3"}
    )
    result = moved(state, {"Ann": "MOVE C-4"})
    assert result.state.alert_floors == () and private(result, "Ann", "arrival")[0]["present"] == []


def test_c052_dead_guards_do_not_move():
    """Guards: a dead guard does not move; dead guards leave corpses."""
    state = make_state(
        person("Ann", "C-3"),
        step="movement",
        guards={"C": "C-4"},
        plans={"C": "C-5"},
        dead_guards=("C",),
    )
    result = moved(state, {"Ann": "MOVE C-4"})
    assert result.state.guards["C"].room == "C-4"
    assert private(result, "Ann", "arrival")[0]["corpses"] == ["guard C"]


# ---------------------------------------------------------------------- arrival
def test_c060_special_rooms():
    """Arrival: the Weapons Lab gives a Stinger to every living player arriving; the General's
    Room teaches the code; a Generator room or the hangar: the player is told where they are."""
    state = make_state(
        person("Ann", "A-2"), person("Bob", "B-2"), person("Cy", "C-2"), step="movement"
    )
    result = moved(state, {"Ann": f"MOVE {LAB}", "Bob": f"MOVE {GENERALS}", "Cy": f"MOVE {GEN1}"})
    assert (
        result.state.characters["Ann"].stinger and private(result, "Ann", "arrival")[0]["stinger"]
    )
    assert (
        result.state.characters["Bob"].knows_code
        and private(result, "Bob", "arrival")[0]["code"] == "1234"
    )
    assert private(result, "Cy", "arrival")[0]["feature"] == "GENERATOR"
    assert private(result, "Ann", "arrival")[0]["code"] is None


def test_c061_arrival_report_contents():
    """Arrival: feature (destroyed shows as destroyed; hacked shows as normal except to Hackers
    and Engineers), living characters present (guards as "guard C"), corpses, lock, Alert."""
    state = make_state(
        person("Ann", "A-2"),
        person("Hal", "B-2", role="hacker"),
        person("Sam", "E-5", role="sneaker"),
        person("Dead", SEER, alive=False),
        step="movement",
        hacked=(SEER,),
        guards={"A": "A-5"},
        plans={"A": SEER},
    )
    result = moved(state, {"Ann": f"MOVE {SEER}", "Hal": f"MOVE {SEER}"})
    ann, hal = private(result, "Ann", "arrival")[0], private(result, "Hal", "arrival")[0]
    assert ann["feature"] == "SEER" and ann["condition"] == "" and hal["condition"] == "hacked"
    assert ann["present"] == ["Hal", "guard A"] and ann["corpses"] == ["Dead"]
    assert ann["alert"] is True and ann["locked"] is False
    state = make_state(person("Ann", "A-2"), step="movement", destroyed=(SEER,))
    assert (
        private(moved(state, {"Ann": f"MOVE {SEER}"}), "Ann", "arrival")[0]["condition"]
        == "destroyed"
    )


# ---------------------------------------------------------------------- alert
def test_c070_alert_guard_meets_a_visible_character():
    """Alert 1: a living guard shares a room with a living character who is neither Sneaker nor
    Renegade."""
    for role, alert in (
        ("warrior", True),
        ("hacker", True),
        ("sneaker", False),
        ("renegade", False),
    ):
        npc = role == "renegade"
        state = make_state(
            person("Ann", "C-2", role=role, npc=npc, team="neutral" if npc else "green"),
            person("Bob", "A-2"),
            person("Cy", "A-3"),
            person("Dee", "A-4"),
            person("Eve", "A-5"),
            step="movement",
            plans={"C": "C-2"},
        )
        result = moved(state)
        assert bool(result.state.alert_floors) is alert, role
        assert public(result, "alert")[0]["holds"] is alert


def test_c071_alert_two_guards_meet():
    """Alert 2: two living guards share a room."""
    state = make_state(person("Ann", "A-2"), step="movement", plans={"C": "D-4", "D": "D-4"})
    assert moved(state).state.alert_floors == ("D",)


def test_c072_alert_guard_finds_a_guard_corpse():
    """Alert 3: a living guard shares a room with a guard corpse."""
    state = make_state(
        person("Ann", "A-2"),
        step="movement",
        guards={"D": "D-4"},
        dead_guards=("D",),
        plans={"C": "D-4"},
    )
    assert moved(state).state.alert_floors == ("D",)


@pytest.mark.parametrize("scope", ["facility", "floor"])
def test_c073_alert_scope_option(scope):
    """Alert, scope (option): `facility` (default) silences terminals everywhere; `floor` only
    where a condition holds, and the public post names those floors."""
    validity_elsewhere = room_with("PSYCHIC")  # on floor A
    state = make_state(
        person("Ann", validity_elsewhere),
        person("Bob", "C-3"),
        person("Cy", "A-3"),
        person("Dee", "A-4"),
        person("Eve", "A-5"),
        step="movement",
        plans={"C": "C-3"},
        options={"alert_scope": scope},
    )
    result = moved(state)
    alert = public(result, "alert")[0]
    assert alert["holds"] is True and alert["floors"] == (["C"] if scope == "floor" else [])
    assert private(result, "Ann", "arrival")[0]["alert"] is (scope == "facility")
    grammar = {spec.keyword for spec in RULES.phase(result.state).grammar["Ann"]}
    assert ("USE" in grammar) is (scope == "floor")


# ---------------------------------------------------------------------- lynch
def voters(n=6, options=None, **extra):
    """Six (or `n`) players on floor A, Fay the Red. Phantom votes stay off unless `options`
    turn them on: with them on, a non-voter's vote for themself changes every tally, so the
    lynch cases below that are not about that option pin it (c080 asserts per variant)."""
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gil"][:n]
    rooms = ["A-2", "A-3", "A-4", "A-5", "A-6", "A-7", "B-2"]
    people = [
        person(name, room, team="red" if name == "Fay" else "green")
        for name, room in zip(names, rooms)
    ]
    return make_state(*people, options={"phantom_votes": False, **(options or {})}, **extra)


def test_c080_most_votes_lynched_and_every_vote_published(rule_options):
    """Lynch: only living players' votes count; the option with the most votes wins; every vote
    is published.

    Option-sensitive: under `phantom_votes` the two non-voters (Eve, Fay) vote for themselves,
    which is published too; Bob still has the most votes."""
    phantom = bool(rule_options.get("phantom_votes"))
    state = voters(options={"phantom_votes": phantom})
    result = resolve(
        state, {"Ann": "VOTE Bob", "Cy": "VOTE Bob", "Dee": "VOTE Ann", "Bob": "VOTE NO LYNCH"}
    )
    assert (
        not result.state.characters["Bob"].alive and result.state.characters["Bob"].cause == "lynch"
    )
    phantoms = {"Eve": "Eve", "Fay": "Fay"} if phantom else {}
    assert public(result, "votes")[0]["votes"] == {
        "Ann": "Bob",
        "Bob": "NO LYNCH",
        "Cy": "Bob",
        "Dee": "Ann",
        **phantoms,
    }
    assert public(result, "lynch")[0] == {
        "turn": 1,
        "outcome": "lynched",
        "victim": "Bob",
        "reason": "",
    }


@pytest.mark.parametrize("tie", ["no-lynch", "random"])
def test_c081_tie_option(tie):
    """Lynch, tie (option): `no-lynch` (default) or `random` among the tied options, NO LYNCH
    included. (Phantom votes off, `voters`: non-voters would break the tie.)"""
    outcomes = set()
    for turn in range(1, 40):
        state = voters(options={"tie": tie}, turn=turn)
        result = resolve(
            state,
            {"Ann": "VOTE Bob", "Cy": "VOTE Bob", "Dee": "VOTE NO LYNCH", "Eve": "VOTE NO LYNCH"},
        )
        outcomes.add(public(result, "lynch")[0]["victim"])
    assert outcomes == ({None} if tie == "no-lynch" else {None, "Bob"})


@pytest.mark.parametrize(
    "reds_alive,path,winner",
    [(True, "no-reds-left-wrong", "red"), (False, "no-reds-left", "green")],
)
def test_c082_no_reds_left_passes_only_unanimously(reds_alive, path, winner):
    """Lynch: NO REDS LEFT passes only if every living player votes for it; the game ends at
    once, before combat: Greens win if no Red player is alive, otherwise Reds win."""
    state = voters(n=7)
    if not reds_alive:
        state = state.killed("Fay", "lynch")
    living = [c.name for c in state.living_players()]
    orders = {name: "VOTE NO REDS LEFT" for name in living}
    result = resolve(state, orders)
    assert result.state.result.path == path and result.state.result.winners == (winner,)
    assert public(result, "lynch")[0]["outcome"] == "no-reds-left"
    assert not public(result, "deaths")


def test_c083_no_reds_left_short_of_unanimous_is_no_lynch():
    """Lynch: if NO REDS LEFT has the most votes but not all of them, the result is no lynch."""
    state = voters()
    result = resolve(
        state, {n: "VOTE NO REDS LEFT" for n in ("Ann", "Bob", "Cy", "Dee")} | {"Eve": "VOTE Ann"}
    )
    lynch = public(result, "lynch")[0]
    assert (
        lynch["victim"] is None
        and lynch["reason"] == "no-reds-left-short"
        and result.state.result is None
    )


def test_c084_no_reds_left_in_a_random_tie_lynches_nobody():
    """Lynch: if NO REDS LEFT is among the tied options, nobody is lynched. (Phantom votes
    off, `voters`: non-voters would break the tie.)"""
    for turn in range(1, 15):
        state = voters(options={"tie": "random"}, turn=turn)
        result = resolve(
            state,
            {
                "Ann": "VOTE Bob",
                "Cy": "VOTE Bob",
                "Dee": "VOTE NO REDS LEFT",
                "Eve": "VOTE NO REDS LEFT",
            },
        )
        assert public(result, "lynch")[0]["victim"] is None


@pytest.mark.parametrize("phantom", [False, True])
def test_c085_phantom_votes_option(phantom):
    """Lynch, phantom votes (option, default off): when on, a living player who did not vote
    counts as a vote to lynch themself."""
    state = voters(n=5, options={"phantom_votes": phantom})
    result = resolve(state, {"Ann": "VOTE Bob", "Cy": "VOTE Bob", "Dee": "VOTE NO LYNCH"})
    votes = public(result, "votes")[0]
    assert votes["phantom"] == (["Bob", "Eve"] if phantom else [])
    assert (votes["votes"].get("Eve") == "Eve") is phantom
    # With phantom votes Bob has 3 (two and his own): still lynched either way here.
    assert public(result, "lynch")[0]["victim"] == "Bob"


def test_c086_no_votes_no_lynch():
    """Lynch: with no votes cast, nobody is lynched. (Phantom votes off, `voters`: with them
    on, every player votes for themself.)"""
    result = resolve(voters())
    assert public(result, "lynch")[0] == {
        "turn": 1,
        "outcome": "nobody",
        "victim": None,
        "reason": "no-votes",
    }


def test_c144_a_vote_for_a_player_killed_since_does_not_count():
    """Lynch: only living players can be lynched; a host kill "takes effect at once" and
    the game goes on: a vote given for a player the host has removed since does not count
    (nobody is lynched twice), and its voter is not a phantom voter either."""
    for phantom in (False, True):
        state = voters(options={"phantom_votes": phantom})
        orders = {
            "Ann": parse(state, "Ann", "VOTE Bob"),
            "Cy": parse(state, "Cy", "VOTE Bob"),
            "Dee": parse(state, "Dee", "VOTE Eve"),
        }
        state = RULES.host_kill(state, "Bob", "left the game").state
        result = RULES.resolve(state, orders)
        assert result.state.characters["Bob"].cause == "host"
        assert public(result, "lynch")[0]["victim"] == "Eve"
        votes = public(result, "votes")[0]
        assert "Ann" not in votes["votes"] and "Cy" not in votes["votes"]
        assert "Ann" not in votes["phantom"] and "Cy" not in votes["phantom"]


# ---------------------------------------------------------------------- combat
EXAMPLES = [
    ({"A": "C", "B": "C", "C": "A,B"}, {"C"}),
    ({"A": "B,C", "B": "C", "C": "A,B"}, {"B", "C"}),
    ({"A": "B,C", "B": "A,C", "C": "A,B"}, set()),
    ({"A": "B", "B": "C", "C": "A"}, {"A", "B", "C"}),
    ({"A": "B,C", "B": "C", "C": "B"}, {"B", "C"}),
]


@pytest.mark.parametrize("attacks,dead", EXAMPLES)
def test_c090_the_sources_five_examples_through_the_engine(attacks, dead, rule_options):
    """Combat: the source's five examples, with A, B and C all Warriors."""
    names = {"A": "Ava", "B": "Ben", "C": "Cal"}
    people = [person(names[x], SEER) for x in "ABC"] + [
        person(n, r) for n, r in (("Dee", "A-2"), ("Eve", "A-3"), ("Fay", "A-4"), ("Gil", "A-5"))
    ]
    state = make_state(*people, options=rule_options)
    orders = {
        names[a]: "ATTACK " + ", ".join(names[t] for t in targets.split(","))
        for a, targets in attacks.items()
    }
    result = resolve(state, orders)
    assert {n for n in names.values() if not result.state.characters[n].alive} == {
        names[x] for x in dead
    }


def test_c091_guards_in_combat():
    """Combat: guards attack every living non-guard except Sneakers and Renegades; a Warrior
    (priority 3) kills a guard (2) before it acts; a Hacker who attacks back parries it."""
    people = [
        person("War", "C-3"),
        person("Hal", "D-3", role="hacker"),
        person("Sam", "E-3", role="sneaker"),
        person("Idle", "F-3", role="hacker"),
        person("Eve", "A-3"),
        person("Fay", "A-4"),
    ]
    state = make_state(*people, guards={"C": "C-3", "D": "D-3", "E": "E-3", "F": "F-3"})
    result = resolve(state, {"War": "ATTACK GUARD", "Hal": "ATTACK GUARD"})
    alive = {n: c.alive for n, c in result.state.characters.items()}
    assert alive["War"] and alive["Hal"] and alive["Sam"] and not alive["Idle"]
    assert result.state.characters["Idle"].cause == "guard"
    assert (
        not result.state.guards["C"].alive
        and result.state.guards["D"].alive
        and result.state.guards["E"].alive
    )


def test_c092_everyone_in_the_room_learns_the_attacks_and_the_dead():
    """Combat: every character in the room when combat begins learns every attack declared
    there by a player or NPC (attacker -> target), who died, and who killed each of them
    (guards included); a guard's automatic attacks are not otherwise listed. The public hears
    deaths by name only."""
    state = make_state(
        person("Ann", SEER),
        person("Bob", SEER),
        person("Cy", SEER, role="hacker"),
        person("Dee", "A-2"),
        person("Eve", "A-3"),
        guards={"A": SEER},
    )
    result = resolve(state, {"Ann": "ATTACK Bob"})
    seen = private(result, "Cy", "combat")[0]
    assert seen["attacks"] == [["Ann", "Bob"]]
    assert seen["dead"] == ["Ann", "Bob", "Cy"]
    assert seen["killers"] == {"Ann": ["guard A"], "Bob": ["Ann"], "Cy": ["guard A"]}
    assert private(result, "Ann", "combat")[0] == seen and not private(result, "Dee", "combat")
    assert public(result, "deaths")[0]["names"] == ["Ann", "Bob", "Cy"]


def test_c093_a_lynched_player_does_not_fight():
    """Resolution: the lynch (priority 5) happens before any combat."""
    state = make_state(
        person("Ann", SEER),
        person("Bob", SEER),
        person("Cy", "A-2"),
        person("Dee", "A-3"),
        person("Eve", "A-4"),
    )
    result = resolve(state, {"Cy": "VOTE Ann", "Dee": "VOTE Ann", "Ann": "ATTACK Bob"})
    assert not result.state.characters["Ann"].alive and result.state.characters["Bob"].alive
