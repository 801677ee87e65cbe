"""Victory (rules: Victory). Checked after arrival, after the lynch, at the end of each
resolution, and after a host kill."""

from __future__ import annotations

from enum import Enum
from typing import Iterable

from engine.core import Event, Result
from engine.infiltration.evolve import evolve
from engine.infiltration.state import GREEN, RED, GameState, Step
from engine.infiltration.pieces import Character


class VictoryPath(Enum):
    """Every way a game ends (rules: Victory); the value is the path as results, events and
    saved games carry it."""

    GHOST_DESTROYED = "ghost-destroyed"
    REDS_WIN = "greens-too-few"
    DRAW = "draw-too-few"
    NO_REDS_LEFT_RIGHT = "no-reds-left"
    NO_REDS_LEFT_WRONG = "no-reds-left-wrong"
    TURN_LIMIT = "draw-turn-limit"


PATHS = tuple(path.value for path in VictoryPath)


def victory_result(winners: Iterable[str], path: str, players: Iterable[str]) -> Result:
    """A result on one of the declared `PATHS`; any other path is a ValueError."""
    if path not in PATHS:
        raise ValueError(
            f"{path!r} is not an Infiltration victory path; the paths are {', '.join(PATHS)}."
        )
    return Result(tuple(winners), path, tuple(players))


def team_players(state: GameState, team: str) -> tuple[str, ...]:
    """Every player (living or dead) of a team: the winners' list. NPCs never count."""
    return tuple(c.name for c in state.players() if c.team == team)


def _win(state: GameState, team: str | None, path: VictoryPath) -> Result:
    if team is None:
        return victory_result((), path.value, ())
    return victory_result((team,), path.value, team_players(state, team))


def ghost_destroyed(state: GameState) -> bool:
    """Both Power Generator rooms hold a living player each, and at least two living players
    carrying Stingers are in the GHOST Hangar. NPCs do not count; allegiance is not checked."""

    def players_in(room: str) -> list[Character]:
        return [c for c in state.in_room(room) if not c.npc]

    generators = state.room_with("GENERATOR")
    hangar = state.room_with("HANGAR")[0]
    return (
        all(players_in(room) for room in generators)
        and sum(1 for c in players_in(hangar) if c.stinger) >= 2
    )


def head_count(state: GameState) -> Result | None:
    """Reds win when a Red player lives and fewer than four Green players do; a draw when no
    Red player lives and fewer than four Green players do."""
    living = state.living_players()
    greens = sum(1 for c in living if c.team == GREEN)
    reds = sum(1 for c in living if c.team == RED)
    if greens >= 4:
        return None
    return _win(state, RED, VictoryPath.REDS_WIN) if reds else _win(state, None, VictoryPath.DRAW)


def after_arrival(state: GameState) -> Result | None:
    if ghost_destroyed(state):
        return _win(state, GREEN, VictoryPath.GHOST_DESTROYED)
    return head_count(state)


def no_reds_left(state: GameState) -> Result:
    """NO REDS LEFT passed: Greens win if no Red player is alive, otherwise Reds win."""
    if any(c.team == RED for c in state.living_players()):
        return _win(state, RED, VictoryPath.NO_REDS_LEFT_WRONG)
    return _win(state, GREEN, VictoryPath.NO_REDS_LEFT_RIGHT)


def end_of_resolution(state: GameState) -> Result | None:
    """The head count, then the turn limit (option, default 30): a draw."""
    result = head_count(state)
    if result is None and state.turn >= state.options["turn_limit"]:
        return _win(state, None, VictoryPath.TURN_LIMIT)
    return result


def end_game(state: GameState, result: Result) -> tuple[GameState, Event]:
    """The game is over with `result`: the final state, and the public event announcing it."""
    state = evolve(state, step=Step.OVER, result=result)
    return state, Event("result", {"turn": state.turn, **result.to_json()})
