"""`evolve` (engine/infiltration/evolve.py), the engine's copy of a state's frozen values:
the same value `dataclasses.replace` makes, and the cached values it hands on (a state's
`CARRIED`) always equal what the copy would make afresh. Oracle for the second: on every
state of seeded scripted games, each cached value the state holds against the same value
made by a state built anew from its fields (`dataclasses.replace` keeps no cached value)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.infiltration.evolve import evolve
from engine.infiltration.knowledge import player_map
from engine.infiltration.rooms import ROOMS
from engine.infiltration.state import GameState
from engine.simulation import Table

from tests.infiltration.scenario import RULES


def _state(seed: str = "evolve") -> GameState:
    table = Table(RULES, 10, seed, {}, 0.25)
    for _ in range(4):
        table.play_phase(RULES.phase(table.state))
    return table.state


def test_a_copy_is_the_value_replace_makes():
    state = _state()
    alice = next(iter(state.characters.values()))
    assert evolve(alice, room="H-8", alive=False) == replace(alice, room="H-8", alive=False)
    assert evolve(state, turn=9, locks={"A-1": 9}) == replace(state, turn=9, locks={"A-1": 9})
    assert evolve(state, turn=9).turn == 9 and state.turn != 9  # the original is untouched


def test_a_field_the_value_does_not_have_is_refused():
    state = _state()
    with pytest.raises(TypeError, match="no field 'room'"):
        evolve(state, room="A-1")


def test_a_cached_value_is_handed_on_only_while_its_fields_are_unchanged():
    state = _state()
    who_is_where, judges = state.by_room, state.derived
    later = evolve(state, turn=state.turn + 1)
    assert later.by_room is who_is_where  # made from the characters and guards alone
    assert later.derived is not judges  # made from the whole state: never handed on
    name, character = next(
        (n, c) for n, c in state.characters.items() if c.alive and c.room != "H-8"
    )
    moved = evolve(state, characters={**state.characters, name: replace(character, room="H-8")})
    assert moved.by_room is not who_is_where
    assert name in [c.name for c in moved.by_room["H-8"][0]]
    assert name not in [c.name for c in moved.by_room.get(character.room, ([], [], [], []))[0]]


@pytest.mark.parametrize("seed", ["carry-0", "carry-1", "carry-2"])
def test_every_cached_value_a_state_holds_equals_the_one_made_afresh(seed):
    table = Table(RULES, 12, seed, {}, 0.25)
    checked = 0
    while (phase := RULES.phase(table.state)) is not None:
        table.play_phase(phase)
        state, fresh = table.state, replace(table.state)
        for cached in GameState.CARRIED:
            if cached in state.__dict__ and cached not in ("sights", "histories"):
                assert state.__dict__[cached] == getattr(fresh, cached), (cached, state.phase_id)
                checked += 1
        for room in ROOMS:
            assert state.sight(room) == fresh.sight(room)
        for name in state.characters:  # the maps' memo: each reader's history as made afresh
            assert player_map(state, name) == player_map(fresh, name)
            assert state.histories[name] == fresh.histories[name]
    assert checked > 20
