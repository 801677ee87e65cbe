"""The human anchors (docs/balance.md: Calibration against human play): the standard
anchor is played as its server scores it (a Fox that steals the win), and an anchor check
can fail: the standard anchor fails for a clearly wrong skill, and the novice anchor, whose
band holds at every skill, says it checks consistency only."""

from __future__ import annotations

from engine.simulation import play_table
from engine.werewolf.balance.anchor_roles import FOX
from engine.werewolf.balance.study import NOVICE, STANDARD
from engine.werewolf.roles import BUILTIN_ROLES
from pbp.balance.calibration import (
    anchor_agrees,
    anchor_rules,
    anchor_verdict,
    calibrated,
    play_anchor,
    skill_note,
)


def test_the_standard_anchors_fox_steals_the_win_as_on_its_server():
    """The wolves' attack never kills the Fox, the Seer's vision does, the village never
    wins while the Fox lives, and the Fox is no built-in role."""
    assert FOX not in {role.name for role in BUILTIN_ROLES}
    rules = anchor_rules(STANDARD)
    divined = 0
    for seed in range(12):
        state = play_table(rules, STANDARD.players, f"fox/{seed}", STANDARD.options, 0.6).state
        fox = next(c for c in state.characters if c.role == FOX)
        assert fox.death_cause != "wolves"
        divined += fox.death_cause == "divined"
        if state.result and "village" in state.result.winners:
            assert not fox.alive
    assert divined > 0


def test_the_standard_anchor_fails_for_a_clearly_wrong_skill():
    """At skill 0 (random play) the 17-player village wins far below the human 49.5 %."""
    wins = play_anchor(STANDARD, 150, skill=0.0, seed="wrong-skill")
    assert not anchor_agrees(STANDARD, wins, 150)
    assert "OUTSIDE" in anchor_verdict(STANDARD, wins, 150)


def test_the_novice_anchor_says_it_checks_consistency_only():
    assert STANDARD.pins_skill and not NOVICE.pins_skill
    assert "consistency check only" in anchor_verdict(NOVICE, 8, 25)
    assert "25 human games" in anchor_verdict(NOVICE, 8, 25)
    assert "does not state" in anchor_verdict(STANDARD, 8, 25)
    assert {anchor.name for anchor in calibrated()[1].anchors} == {"novice", "standard"}
    assert STANDARD.games == 0 and NOVICE.games == 25  # the server did not say how many


def test_the_standard_anchor_agrees_at_the_default_skill():
    wins = play_anchor(STANDARD, 200, seed="right-skill")
    assert anchor_agrees(STANDARD, wins, 200), anchor_verdict(STANDARD, wins, 200)


def test_simulate_says_what_human_data_the_skill_rests_on():
    """Where no human record pins the skill, the output says so rather than imply it."""
    assert "No human record pins the skill for infiltration" in skill_note("infiltration")
    note = skill_note("werewolf")
    assert "49.5 %" in note and "novice" not in note  # the novice anchor pins nothing
