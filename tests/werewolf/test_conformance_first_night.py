"""Werewolf conformance, the option `first_night` (docs/rules/werewolf.md: Setup and
options): `full` makes N0 a whole night, as in night-first games. One numbered scenario
per test; the rule it checks is quoted in its docstring."""

from __future__ import annotations

import pytest

from tests.werewolf.werewolf_helpers import RULES, alive, game, private_event, public_event, step

pytestmark = pytest.mark.usefixtures("option_variant")


def keywords(state, player):
    return [spec.keyword for spec in RULES.phase(state).grammar[player]]


def test_c091_a_full_first_night_is_a_whole_night():
    """Option first_night=full: N0 is a whole night: every night role gives its orders (the
    wolves KILL, the Seer SEEs, the Bodyguard PROTECTs, the Romantic LOVEs) and day 1 opens
    on its deaths and reports."""
    state = game(
        {
            "Alice": "werewolf",
            "Bruno": "seer",
            "Chloe": "bodyguard",
            "Dmitri": "romantic",
            "Elena": "villager",
            "Farid": "villager",
        },
        first_night="full",
    )
    assert keywords(state, "Alice") == ["KILL"] and keywords(state, "Bruno") == ["SEE"]
    assert keywords(state, "Chloe") == ["PROTECT"] and keywords(state, "Dmitri") == ["LOVE"]
    assert RULES.phase(state).secret_actors
    dawn = step(
        state,
        {
            "Alice": "KILL Elena",
            "Bruno": "SEE Alice",
            "Chloe": "PROTECT Farid",
            "Dmitri": "LOVE Farid",
        },
    )
    assert dawn.state.phase_id == "D1-nominate"
    assert public_event(dawn, "dawn").data["deaths"] == ["Elena"]
    assert private_event(dawn, "Bruno", "vision").data == {"target": "Alice", "verdict": "wolf"}
    assert not alive(dawn.state, "Elena")


def test_c092_a_full_first_night_has_the_witch_turn():
    """Option first_night=full with a Witch: N0-witch follows N0; she is told the wolves'
    target and may save it, as on any night."""
    state = game(
        {
            "Alice": "werewolf",
            "Bruno": "witch",
            "Chloe": "villager",
            "Dmitri": "villager",
            "Elena": "villager",
        },
        first_night="full",
    )
    told = step(state, {"Alice": "KILL Chloe"})
    assert told.state.phase_id == "N0-witch"
    assert private_event(told, "Bruno", "witch_told").data["target"] == "Chloe"
    dawn = step(told.state, {"Bruno": "SAVE"})
    assert dawn.state.phase_id == "D1-nominate" and alive(dawn.state, "Chloe")


def test_c093_the_quiet_first_night_is_the_default():
    """Option first_night (default quiet): N0 has only the Romantic's LOVE; nobody is
    killed before day 1. With first_night=full the Apothecary, who learns of the day's
    lynch, gets no report on N0: no day has passed."""
    state = game(
        {
            "Alice": "werewolf",
            "Bruno": "seer",
            "Chloe": "romantic",
            "Dmitri": "villager",
            "Elena": "villager",
        }
    )
    assert keywords(state, "Alice") == [] and keywords(state, "Chloe") == ["LOVE"]
    assert public_event(step(state, {}), "dawn").data["deaths"] == []
    full = game(
        {
            "Alice": "werewolf",
            "Bruno": "apothecary",
            "Chloe": "villager",
            "Dmitri": "villager",
            "Elena": "villager",
        },
        first_night="full",
    )
    dawn = step(full, {"Alice": "KILL Chloe"})
    assert "Bruno" not in dawn.private or all(
        e.kind != "apothecary_report" for e in dawn.private["Bruno"]
    )
