"""Views (docs/design.md: One gate): what one player, or the public, may know, as JSON.
Templates and the moderator shell only ever see these."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.core import PlayerStatus
from engine.werewolf.characters import faction_of, revealed_role
from engine.werewolf.game_state import GameState
from engine.werewolf.phases import lover_of, phase_kind
from engine.werewolf.table import RoleTable
from engine.werewolf.teams import shown_teams

PUBLIC_OPTIONS = (
    "reveal_roles",
    "wench_missing",
    "bodyguard_self",
    "bodyguard_repeat",
    "wolf_tie",
    "setup_11",
    "modkill_loses",
    "first_night",
)


def public_view(state: GameState, table: RoleTable) -> dict[str, Any]:
    over = state.result is not None
    reveal = state.option("reveal_roles")
    players = []
    for c in state.characters:
        entry = {"name": c.name, "alive": c.alive, "died_in": c.death_phase}
        if over or (reveal and not c.alive):
            entry["role"] = revealed_role(c)
        players.append(entry)
    return {
        "ruleset": "werewolf",
        "phase": state.phase_id if not over else None,
        "phase_kind": phase_kind(state.phase_id) if not over else None,
        "day": state.day,
        "over": over,
        "setup": dict(sorted(Counter(state.setup).items())),
        "options": {name: value for name, value in state.options if name in PUBLIC_OPTIONS},
        "players": players,
        "living": list(state.living),
        "defendants": list(state.defendants),
        "runoff": (
            None
            if state.runoff is None
            else {
                "standing": list(state.runoff.standing),
                "tied": list(state.runoff.tied),
                "places": state.runoff.places,
            }
        ),
        "log": [event.to_json() for event in state.public_log],
        "result": None if state.result is None else state.result.to_json(),
    }


def player_view(
    state: GameState, table: RoleTable, player: str, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The public view with the player's own facts; `public`, when given, is the public
    view made once for several players, whose parts the views then share (only read)."""
    view = dict(public_view(state, table) if public is None else public)
    view["me"] = own_facts(state, table, player)
    return view


def own_facts(
    state: GameState, table: RoleTable, player: str, with_inbox: bool = True
) -> dict[str, Any]:
    """The view's `me`: what the player knows of their own character (`with_inbox`: and
    every private report they were sent, which a status does not need)."""
    me = state.character(player)
    role = table.by_name[me.role]
    mine = {
        "name": me.name,
        "alive": me.alive,
        "role": me.role,
        "role_summary": role.summary,
        "faction": faction_of(me, table.by_name),
        "role_state": dict(me.role_state),
        "teams": shown_teams(me, state.living),
        "lover": lover_of(state, player),
        "silenced": state.silenced == player and state.phase_id.startswith("D"),
        "inbox": [event.to_json() for event in me.inbox] if with_inbox else [],
    }
    if state.pending is not None and me.role == "witch" and me.alive:
        mine["wolves_target"] = state.pending.wolf_target
    return mine


# The team channel of each team a player can be shown (docs/rules/werewolf.md: Team
# channels); a team an extra role brings has a channel named after the team.
CHANNELS = {"wolves": "pack", "mason": "masons", "weregerbil": "gerbils"}


def player_status(state: GameState, table: RoleTable, player: str) -> PlayerStatus:
    """The player's status, read from their own view so it tells no more than it."""
    me = own_facts(state, table, player, with_inbox=False)
    teammates = {team: tuple(names) for team, names in me["teams"].items()}
    if me["lover"]:
        teammates["lover"] = (me["lover"],)
    channels = [CHANNELS.get(team, team) for team in me["teams"]] + (
        ["lovers"] if me["lover"] else []
    )
    return PlayerStatus(
        alive=me["alive"],
        label=me["role"],
        silenced=me["silenced"],
        teammates=teammates,
        channels=tuple(sorted(channels)) if me["alive"] else (),
        team=me["faction"],
        role=me["role"],
        revealed=(revealed_role(state.character(player)),),
    )
