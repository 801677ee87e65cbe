"""`Ruleset.views` (engine/core.py), every actor's view of a phase made at once for the
simulation: each is exactly `view(state, player)`, in every phase of seeded scripted games
of both rulesets; Infiltration makes the public part once and shares it."""

from __future__ import annotations

import pytest

import engine
from engine.simulation import Table


@pytest.mark.parametrize("ruleset,players", [("infiltration", 12), ("werewolf", 11)])
def test_the_views_made_together_are_each_players_view(ruleset, players):
    rules = engine.ruleset(ruleset)
    table = Table(rules, players, "together", {}, 0.25)
    phases = 0
    while (phase := rules.phase(table.state)) is not None and phases < 30:
        views = rules.views(table.state, phase.actors)
        assert list(views) == list(phase.actors)
        assert all(views[name] == rules.view(table.state, name) for name in phase.actors)
        table.play_phase(phase)
        phases += 1
    assert phases > 5


def test_infiltration_makes_the_public_part_once_for_every_view():
    rules = engine.ruleset("infiltration")
    table = Table(rules, 10, "shared", {}, 0.25)
    table.play_phase(rules.phase(table.state))
    views = list(rules.views(table.state, rules.phase(table.state).actors).values())
    assert all(view["players"] is views[0]["players"] for view in views)
    assert all(view["me"] is not views[0]["me"] for view in views[1:])
