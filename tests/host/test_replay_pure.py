"""Replaying a game from seed and order log, and finding where a stored history differs
(played with the toy Ballot ruleset, so the replay's own logic is what is tested)."""

import pytest

from engine.core import PlayerSpec
from pbp.host.replay import HOST_KILL, RESOLVE, Checkpoint, ReplayError, Step, compare, replay
from tests.fixtures.toy_ruleset import Ballot

PLAYERS = [PlayerSpec(name) for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")]
STEPS = [
    Step(RESOLVE, "D1-vote", {"Alice": ["VOTE Elena"], "Bruno": ["# thinking", "VOTE Elena"]}),
    Step(HOST_KILL, "D2-vote", player="Chloe", reason="broke the rules"),
    Step(RESOLVE, "D2-vote", {"Alice": ["VOTE Dmitri"]}),
]


def test_replay_is_deterministic_and_labels_each_step():
    first = replay(Ballot(), PLAYERS, "seed-1", {}, STEPS)
    again = replay(Ballot(), PLAYERS, "seed-1", {}, STEPS)
    assert first == again
    assert [c.label for c in first] == [
        "start",
        "resolution of D1-vote",
        "host kill of Chloe in D2-vote",
        "resolution of D2-vote",
    ]
    assert first[-1].state["alive"] == ["Alice", "Bruno"]


def test_identical_history_has_no_divergence():
    history = replay(Ballot(), PLAYERS, "seed-1", {}, STEPS)
    assert compare(history, replay(Ballot(), PLAYERS, "seed-1", {}, STEPS)) is None
    # a game that stores only its current state compares on that one checkpoint
    assert compare(history[-1:], history) is None


def test_a_hand_altered_state_is_found_at_its_first_step_and_path():
    history = replay(Ballot(), PLAYERS, "seed-1", {}, STEPS)
    altered = list(history)
    altered[2] = Checkpoint(history[2].label, {**history[2].state, "day": 99})
    divergence = compare(altered, history)
    assert divergence.label == "host kill of Chloe in D2-vote"
    assert divergence.path == ".day"
    assert divergence.stored == 99 and divergence.replayed == history[2].state["day"]
    assert "at .day the stored game has 99 but the replay gives" in str(divergence)


def test_another_seed_differs_from_the_first_step():
    stored = replay(Ballot(), PLAYERS, "seed-1", {}, STEPS)
    replayed = replay(Ballot(), PLAYERS, "seed-2", {}, STEPS)
    divergence = compare(stored, replayed)
    assert divergence.label == "start" and divergence.path == ".seed"


def test_a_log_that_does_not_fit_the_game_is_reported():
    with pytest.raises(ReplayError, match="the replayed game is in D1-vote"):
        replay(Ballot(), PLAYERS, "s", {}, [Step(RESOLVE, "D2-vote", {})])


def test_a_logged_line_that_no_longer_stands_is_dropped_as_the_live_resolution_drops_it():
    """A block accepted before a host action may hold a line the changed state refuses
    (pbp.game.standing_orders); replay drops that line only, exactly as the resolution did."""
    steps = [
        Step(HOST_KILL, "D1-vote", player="Elena", reason="left"),
        Step(RESOLVE, "D1-vote", {"Alice": ["VOTE Elena"], "Bruno": ["VOTE Dmitri"]}),
    ]
    with_refused_line = replay(Ballot(), PLAYERS, "s", {}, steps)
    without_it = replay(
        Ballot(), PLAYERS, "s", {}, [steps[0], Step(RESOLVE, "D1-vote", {"Bruno": ["VOTE Dmitri"]})]
    )
    assert compare(with_refused_line, without_it) is None


def test_a_stored_step_the_replay_never_reaches():
    stored = replay(Ballot(), PLAYERS, "s", {}, STEPS)
    replayed = replay(Ballot(), PLAYERS, "s", {}, STEPS[:1])
    divergence = compare(stored, replayed)
    assert divergence.label == "host kill of Chloe in D2-vote"
    assert "never reaches it" in str(divergence)
