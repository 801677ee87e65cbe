"""The host's actions on an Infiltration game (rules: Victory and host kill): the removal of
a character."""

from __future__ import annotations

from engine.core import Event, HostActionError, Resolution
from engine.infiltration import victory
from engine.infiltration.state import GameState, Step
from engine.infiltration.turn import death_notice


def host_kill(state: GameState, name: str, reason: str) -> Resolution:
    """A host kill takes effect at once, leaves a corpse, voids the character's pending
    orders (the dead give none), is announced with the host's reason, and is followed at
    once by a victory check. Only a living player or NPC can be removed, before the end."""
    character = state.characters.get(name)
    if character is None or not character.alive or state.step == Step.OVER:
        raise HostActionError.of(
            "%(name)s is not a living character of this game; only they can be removed.", name=name
        )
    state = state.killed(name, "host")
    public = [Event("host_kill", {"turn": state.turn, "name": name, "reason": reason})]
    result = victory.head_count(state)
    if result:
        state, event = victory.end_game(state, result)
        public.append(event)
    return Resolution(
        state,
        tuple(public),
        {
            name: (
                Event("host_kill", {"turn": state.turn, "name": name, "reason": reason}),
                death_notice(state, name),
            )
        },
    )
