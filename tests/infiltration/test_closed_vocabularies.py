"""Infiltration's closed vocabularies: the phase step is an Enum whose values are the saved
form, and a result's victory path must be one of the declared `PATHS` (rules: Victory)."""

from __future__ import annotations

import json

import pytest

from engine.core import PlayerSpec
from engine.infiltration import codec
from engine.infiltration.state import Step
from engine.infiltration.victory import PATHS, VictoryPath, victory_result
from engine.seat_names import player_names

from tests.infiltration.scenario import RULES


def test_paths_are_exactly_the_victory_path_values():
    assert PATHS == tuple(path.value for path in VictoryPath)
    assert "ghost-destroyed" in PATHS and "draw-turn-limit" in PATHS


def test_a_result_on_a_declared_path_is_built():
    result = victory_result(["green"], "ghost-destroyed", ["Ann"])
    assert (result.winners, result.path, result.players) == (
        ("green",),
        "ghost-destroyed",
        ("Ann",),
    )


def test_a_result_on_an_undeclared_path_is_an_error_at_construction():
    with pytest.raises(ValueError, match="not an Infiltration victory path"):
        victory_result(["green"], "greens-got-bored", ["Ann"])


def test_a_saved_game_whose_result_has_an_undeclared_path_is_refused():
    state = RULES.new_game([PlayerSpec(name) for name in player_names(8)], "paths", {})
    state = RULES.host_kill(state, player_names(8)[0], "left").state
    data = codec.to_json(state)
    data["result"] = {"winners": ["red"], "path": "reds-got-lucky", "players": []}
    with pytest.raises(ValueError, match="reds-got-lucky"):
        codec.from_json(data)


def test_the_step_is_an_enum_saved_as_its_plain_word():
    state = RULES.new_game([PlayerSpec(name) for name in player_names(8)], "steps", {})
    assert state.step is Step.CLASS and state.phase_id == "T0-class"
    saved = json.loads(json.dumps(codec.to_json(state)))
    assert saved["step"] == "class"
    assert codec.from_json(saved).step is Step.CLASS
    assert RULES.view(state, None)["step"] == "class"
