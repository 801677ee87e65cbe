"""What an order block is read against (engine/infiltration/orders/values.py, `everyone`): the
names and the living of a state, made once per state, never carried over to the next."""

from __future__ import annotations

from dataclasses import replace

import engine
from engine.core import PlayerSpec
from engine.infiltration.orders.values import everyone
from engine.names import name_key


def test_the_names_orders_are_read_against_are_made_once_per_state_and_anew_for_the_next():
    state = engine.ruleset("infiltration").new_game(
        [PlayerSpec(name) for name in ("Alice", "Bruno", "Chloé", "Dmitri", "Elena")], "7", {}
    )
    assert (
        everyone(state).names is everyone(state).names
    )  # the second sender's block reuses the first's
    assert state.names_by_key == {name_key(name): name for name in state.characters}
    assert state.living_names == {c.name for c in state.characters.values() if c.alive}
    later = state.with_character(replace(state.characters["Alice"], alive=False))
    assert "Alice" in everyone(state).living and "Alice" in everyone(state).living_players
    assert "Alice" not in everyone(later).living and "Alice" not in everyone(later).living_players
    assert later.living_names == state.living_names - {"Alice"}
