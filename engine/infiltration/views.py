"""Views: the only gate from the state to what a person may see (docs/design.md: One gate).

The public view holds only public facts: how many Reds play, who is alive, who died (name
and turn, nothing else until the game is over), whether Alert holds (and where, under the
`floor` scope), the last lynch's votes and the result. A player's view adds what that
player knows: their own team, class, room and what they saw there, their Stinger and the
code if they learned it, and for a Red their fellow Reds (NPCs included) and the occupancy
report, and the facility as they know it (`map`, engine/infiltration/knowledge.py). The
host's view is the public view with the whole facility as its map.
"""

from __future__ import annotations

from typing import Any

from engine.core import PlayerStatus
from engine.infiltration.steps.arrival import fellow_reds, occupants
from engine.infiltration.knowledge import host_map, player_map
from engine.infiltration.state import RED, GameState, Step


def public_view(state: GameState) -> dict[str, Any]:
    scope = state.options["alert_scope"]
    in_decision = state.step == Step.DECISION
    over = state.step == Step.OVER
    characters = state.characters.values()
    dead = sorted((c for c in characters if not c.alive), key=lambda c: (c.died_turn or 0, c.name))
    return {
        "game": "infiltration",
        "phase": state.phase_id if not over else None,
        "turn": state.turn,
        "step": state.step.value,
        # At the game's end everyone's team and class become public (the final post's role list).
        "players": (
            [
                {"name": c.name, "alive": c.alive, "npc": c.npc, "team": c.team, "class": c.role}
                for c in characters
            ]
            if over
            else [{"name": c.name, "alive": c.alive, "npc": c.npc} for c in characters]
        ),
        # At the game's end how each one died, and where, becomes public too (the end log).
        "dead": (
            [{"name": c.name, "turn": c.died_turn, "cause": c.cause, "room": c.room} for c in dead]
            if over
            else [{"name": c.name, "turn": c.died_turn} for c in dead]
        ),
        # How many Reds the players hold follows from the option and the number of players.
        "reds": state.initial_reds,
        "alert": {
            "holds": in_decision and bool(state.alert_floors),
            "scope": scope,
            "floors": list(state.alert_floors) if in_decision and scope == "floor" else [],
        },
        "last_votes": dict(state.last_votes),
        "options": {k: v for k, v in state.options.items() if k != "map"},
        "result": state.result.to_json() if state.result else None,
    }


def player_view(
    state: GameState, name: str, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """`name`'s view: the public view (`public`: shared with other views, made once for
    them) with what they know themselves."""
    view = dict(public) if public is not None else public_view(state)
    me = state.characters[name]
    in_decision = state.step == Step.DECISION
    mine = {
        "name": me.name,
        "team": me.team,
        "class": me.role,
        "npc": me.npc,
        "alive": me.alive,
        "room": me.room,
        "feature": me.seen_feature,
        "condition": me.seen_condition,
        "stinger": me.stinger,
        "code": state.code if me.knows_code else None,
        # A lock is shown as the arrival report showed it; one set since is not known.
        "locked": state.lock_holds(me.room) if in_decision else None,
        "alert_here": in_decision and state.alert_in(me.room),
    }
    seen_here = occupants(state, me.room, exclude=me.name) if me.alive else None
    mine.update(seen_here or {"present": [], "corpses": []})
    if me.team == RED:
        mine.update(fellow_reds(state, name))
        mine["occupancy"] = dict(state.red_report) if me.alive else {}
    view["me"] = mine
    view["map"] = player_map(state, name, seen_here)
    return view


def host_view(state: GameState) -> dict[str, Any]:
    """What the host sees of the facility: the public view and the whole map."""
    return {**public_view(state), "map": host_map(state)}


def player_status(state: GameState, player: str) -> PlayerStatus:
    """Rules: Reds know each other (NPCs too) and share the `reds` channel while alive and
    while a fellow Red lives to read it (a lone Red has nobody to write to); the role list
    shows a character by class and team."""
    me = state.characters[player]
    revealed = tuple(filter(None, (me.team, me.role)))
    if me.team != RED:  # most players: no teammates, no channel (asked each phase for each)
        return PlayerStatus(
            alive=me.alive,
            label=me.team,
            teammates={},
            channels=(),
            team=me.team,
            role=me.role or "",
            revealed=revealed,
        )
    fellows = tuple(name for name in state.red_names if name != player)
    talks = me.alive and any(state.characters[name].alive for name in fellows)
    return PlayerStatus(
        alive=me.alive,
        label=me.team,
        teammates={"Reds": fellows},
        channels=("reds",) if talks else (),
        team=me.team,
        role=me.role or "",
        revealed=revealed,
    )
