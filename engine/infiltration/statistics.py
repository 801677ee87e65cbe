"""Host-side statistics of one game for `pbp simulate` (never shown to players)."""

from __future__ import annotations

from typing import Any

from engine.infiltration.state import GameState


def game_statistics(state: GameState) -> dict[str, Any]:
    """Turns played, the players' deaths by cause (lynch, combat, guard, gas, host), the
    guards (NPCs) who died, whatever killed them, apart under `npc_deaths`, and actions
    used (`use:<TERMINAL>`, hack, destroy, restore, repair, attack, vote)."""
    deaths: dict[str, int] = {}
    for character in state.characters.values():
        if not character.alive:
            deaths[character.cause] = deaths.get(character.cause, 0) + 1  # type: ignore[index, arg-type]  # the dead have a cause
    fallen_guards = sum(1 for guard in state.guards.values() if not guard.alive)
    return {
        "turns": state.turn,
        "deaths_by_cause": dict(sorted(deaths.items())),
        "npc_deaths": {"guards": fallen_guards} if fallen_guards else {},
        "actions_used": dict(sorted(state.actions.items())),
    }
