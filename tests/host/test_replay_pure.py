"""Replaying a game from seed and order log, and finding where a stored history differs."""
import pytest

from engine.core import PlayerSpec
from pbp.host.replay import HOST_KILL, RESOLVE, Checkpoint, ReplayError, Step, compare, replay
from tests.host.toy_ruleset import ToyRules

PLAYERS = [PlayerSpec("Alice"), PlayerSpec("Bruno"), PlayerSpec("Chloe")]
STEPS = [
    Step(RESOLVE, "P1", {"Alice": ["ADD 3"], "Bruno": ["# thinking", "ADD 1"]}),
    Step(HOST_KILL, "P2", player="Chloe", reason="broke the rules"),
    Step(RESOLVE, "P2", {"Alice": ["ADD 9"]}),
    Step(RESOLVE, "P3", {}),
]


def test_replay_is_deterministic_and_labels_each_step():
    first = replay(ToyRules(), PLAYERS, "seed-1", {}, STEPS)
    again = replay(ToyRules(), PLAYERS, "seed-1", {}, STEPS)
    assert first == again
    assert [c.label for c in first] == ["start", "resolution of P1", "host kill of Chloe in P2",
                                        "resolution of P2", "resolution of P3"]
    assert first[-1].state["alive"] == ["Alice", "Bruno"]


def test_identical_history_has_no_divergence():
    history = replay(ToyRules(), PLAYERS, "seed-1", {}, STEPS)
    assert compare(history, replay(ToyRules(), PLAYERS, "seed-1", {}, STEPS)) is None
    # a game that stores only its current state compares on that one checkpoint
    assert compare(history[-1:], history) is None


def test_a_hand_altered_state_is_found_at_its_first_step_and_path():
    history = replay(ToyRules(), PLAYERS, "seed-1", {}, STEPS)
    altered = list(history)
    tampered = {**history[2].state, "totals": {**history[2].state["totals"], "Bruno": 99}}
    altered[2] = Checkpoint(history[2].label, tampered)
    divergence = compare(altered, history)
    assert divergence.label == "host kill of Chloe in P2"
    assert divergence.path == ".totals.Bruno"
    assert divergence.stored == 99 and divergence.replayed == history[2].state["totals"]["Bruno"]
    assert "at .totals.Bruno the stored game has 99 but the replay gives" in str(divergence)


def test_another_seed_differs_from_the_first_step():
    stored = replay(ToyRules(), PLAYERS, "seed-1", {}, STEPS)
    replayed = replay(ToyRules(), PLAYERS, "seed-2", {}, STEPS)
    divergence = compare(stored, replayed)
    assert divergence.label == "start" and divergence.path == ".seed"


def test_a_log_that_does_not_fit_the_game_is_reported():
    with pytest.raises(ReplayError, match="the replayed game is in P1"):
        replay(ToyRules(), PLAYERS, "s", {}, [Step(RESOLVE, "P2", {})])


def test_a_logged_line_that_no_longer_stands_is_dropped_as_the_live_resolution_drops_it():
    """A block accepted before a host action may hold a line the changed state refuses
    (pbp.game.standing_orders); replay drops that line only, exactly as the resolution did."""
    with_refused_line = replay(ToyRules(), PLAYERS, "s", {}, [Step(RESOLVE, "P1", {"Alice": ["ADD 12"]})])
    without_orders = replay(ToyRules(), PLAYERS, "s", {}, [Step(RESOLVE, "P1", {})])
    assert compare(with_refused_line, without_orders) is None


def test_a_stored_step_the_replay_never_reaches():
    stored = replay(ToyRules(), PLAYERS, "s", {}, STEPS)
    replayed = replay(ToyRules(), PLAYERS, "s", {}, STEPS[:1])
    divergence = compare(stored, replayed)
    assert divergence.label == "host kill of Chloe in P2"
    assert "never reaches it" in str(divergence)
