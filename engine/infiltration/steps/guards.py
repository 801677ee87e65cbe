"""Guards: planning and moving (rules: Guards).

A guard's next destination is planned when a decision phase's resolution begins (and at
setup, for turn 1): a uniformly random room of its home floor other than its current room.
The Guard terminal reads the plan; the Commander's terminal overwrites it.
"""

from __future__ import annotations

import random

from engine.infiltration.rooms import rooms_on_floor
from engine.infiltration.evolve import evolve
from engine.infiltration.state import GameState
from engine.infiltration.pieces import Guard


def planned_destination(guard: Guard, rng: random.Random) -> str:
    """A random room on the guard's home floor other than where it stands."""
    choices = [room for room in rooms_on_floor(guard.floor) if room != guard.room]
    return rng.choice(choices)


def plan_guards(state: GameState, rng: random.Random) -> GameState:
    """Every living guard plans its next move (in floor order, so draws are stable)."""
    guards = dict(state.guards)
    for floor in sorted(guards):
        guard = guards[floor]
        if guard.alive:
            guards[floor] = evolve(guard, plan=planned_destination(guard, rng))
    return evolve(state, guards=guards)


def move_guards(state: GameState) -> GameState:
    """Guards leave before players arrive; a dead guard does not move."""
    guards = {
        floor: evolve(guard, room=guard.plan) if guard.alive else guard
        for floor, guard in state.guards.items()
    }
    return evolve(state, guards=guards)
