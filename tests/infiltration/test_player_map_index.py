"""A player's map (engine/infiltration/knowledge.py) reads the presence log through the
state's indexes (by who was there, guards by turn and room). Oracle: the log read whole,
line by line, as the rules word it, on every state of seeded scripted games."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import PlayerSpec
from engine.infiltration.knowledge import player_map
from engine.infiltration.state import GameState
from engine.seat_names import player_names

from tests.infiltration.scenario import RULES


def rooms_and_guards_read_whole(
    state: GameState, name: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The rooms `name` arrived in (latest turn, feature found) and the guards found there on
    arrival, every line of the log looked at."""
    visits: dict[str, tuple[int, str]] = {}
    arrived: dict[int, str] = {}
    for turn, room, who, feature in state.presence:
        if who == name:
            visits[room] = (turn, feature)
            arrived[turn] = room
    guards: dict[str, list[list[Any]]] = {}
    for turn, room, who, _feature in state.presence:
        if who.startswith("guard ") and arrived.get(turn) == room:
            guards.setdefault(room, []).append([who, turn])
    return visits, {
        room: sorted(seen, key=lambda entry: (entry[1], entry[0])) for room, seen in guards.items()
    }


@pytest.mark.parametrize("seed", ["map-0", "map-1", "map-2"])
def test_every_players_map_reads_the_log_as_a_whole_reading_would(seed):
    state = RULES.new_game([PlayerSpec(name) for name in player_names(12)], seed, {})
    checked = 0
    while (phase := RULES.phase(state)) is not None:
        for name in state.characters:
            drawn = player_map(state, name)
            visits, guards = rooms_and_guards_read_whole(state, name)
            assert {
                room: (seen["turn"], seen["feature"])
                for room, seen in drawn["rooms"].items()
                if room in visits
            } == visits
            assert drawn["guards"] == guards
            assert list(drawn["guards"]) == [
                room for room in drawn["rooms"] if room in guards
            ]  # in room order
            checked += 1
        orders = {
            actor: RULES.parse_orders(
                state, actor, RULES.scripted_orders(state, actor, seed).splitlines()
            )
            for actor in phase.actors
        }
        state = RULES.resolve(state, orders).state
    assert checked > 100 and any(player_map(state, name)["guards"] for name in state.characters)
