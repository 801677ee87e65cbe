"""The game state to plain JSON and back (docs/design.md: Engine contract).

Orders held by a night in progress are stored as their canonical text and read back
with the role table's keywords (`parse(str(o)) == o`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from engine.core import Event, Result
from engine.werewolf.characters import Character
from engine.werewolf.game_state import GameState, Runoff
from engine.werewolf.model import Night
from engine.werewolf.orders import parse_line
from engine.werewolf.table import RoleTable
from engine.werewolf.teams import introduce


def pairs(value: Iterable[Iterable[Any]]) -> list[list[Any]]:
    return [list(pair) for pair in value]


def event_json(event: Event) -> dict[str, Any]:
    return event.to_json()


def event_from(data: Mapping[str, Any]) -> Event:
    return Event(data["kind"], dict(data["data"]))


def character_json(c: Character) -> dict[str, Any]:
    return {
        "name": c.name,
        "role": c.role,
        "alive": c.alive,
        "creature": c.creature,
        "role_state": pairs(c.role_state),
        "joined": c.joined,
        "death_cause": c.death_cause,
        "death_phase": c.death_phase,
        "inbox": [event_json(e) for e in c.inbox],
        "known_teams": {team: list(members) for team, members in c.known_teams},
    }


def character_from(data: Mapping[str, Any]) -> Character:
    return Character(
        name=data["name"],
        role=data["role"],
        alive=data["alive"],
        creature=data["creature"],
        role_state=tuple(tuple(p) for p in data["role_state"]),
        joined=data["joined"],
        death_cause=data["death_cause"],
        death_phase=data["death_phase"],
        inbox=tuple(event_from(e) for e in data["inbox"]),
        known_teams=tuple(
            sorted((team, tuple(members)) for team, members in data.get("known_teams", {}).items())
        ),
    )


def night_json(night: Night) -> dict[str, Any]:
    return {
        "number": night.number,
        "characters": [character_json(c) for c in night.characters],
        "orders": [[player, str(order)] for player, order in night.orders],
        "lovers": list(night.lovers),
        "last_lynch": None if night.last_lynch is None else pairs(night.last_lynch),
        "changed": list(night.changed),
        "dead_now": pairs(night.dead_now),
        "dying": pairs(night.dying),
        "protected": list(night.protected),
        "bedfellows": pairs(night.bedfellows),
        "wolf_target": night.wolf_target,
        "saved": night.saved,
        "conversions": pairs(night.conversions),
        "silenced": night.silenced,
        "rabble": night.rabble,
        "reports": [[name, event_json(e)] for name, e in night.reports],
        "actions": list(night.actions),
        "stamp": night.stamp,
    }


def night_from(data: Mapping[str, Any], state: "GameState", table: RoleTable) -> Night:
    players = [c.name for c in state.characters]
    return Night(
        number=data["number"],
        seed=state.seed,
        options=state.options,
        roles=table.by_name,
        characters=tuple(character_from(c) for c in data["characters"]),
        orders=tuple(
            (player, parse_line(text, table.keywords, players)) for player, text in data["orders"]
        ),
        lovers=tuple(data["lovers"]),
        last_lynch=(
            None if data["last_lynch"] is None else tuple(tuple(p) for p in data["last_lynch"])
        ),
        changed=tuple(data["changed"]),
        dead_now=tuple(tuple(p) for p in data["dead_now"]),
        dying=tuple(tuple(p) for p in data["dying"]),
        protected=tuple(data["protected"]),
        bedfellows=tuple(tuple(p) for p in data["bedfellows"]),
        wolf_target=data["wolf_target"],
        saved=data["saved"],
        conversions=tuple(tuple(p) for p in data["conversions"]),
        silenced=data["silenced"],
        rabble=data["rabble"],
        reports=tuple((name, event_from(e)) for name, e in data["reports"]),
        actions=tuple(data["actions"]),
        stamp=data["stamp"],
    )


def state_json(state: GameState) -> dict[str, Any]:
    return {
        "ruleset": "werewolf",
        "seed": state.seed,
        "options": dict(state.options),
        "setup": list(state.setup),
        "characters": [character_json(c) for c in state.characters],
        "phase_id": state.phase_id,
        "day": state.day,
        "lovers": list(state.lovers),
        "runoff": (
            None
            if state.runoff is None
            else {
                "standing": list(state.runoff.standing),
                "tied": list(state.runoff.tied),
                "places": state.runoff.places,
            }
        ),
        "defendants": list(state.defendants),
        "rabble": state.rabble,
        "silenced": state.silenced,
        "last_lynch": None if state.last_lynch is None else pairs(state.last_lynch),
        "pending": None if state.pending is None else night_json(state.pending),
        "public_log": [event_json(e) for e in state.public_log],
        "stamp": state.stamp,
        "actions": dict(state.actions),
        "result": None if state.result is None else state.result.to_json(),
        "removed": list(state.removed),
        "night_removed": list(state.night_removed),
        "modkilled": list(state.modkilled),
    }


def state_from(data: Mapping[str, Any], table: RoleTable) -> GameState:
    runoff = data["runoff"]
    result = data["result"]
    state = GameState(
        seed=data["seed"],
        options=tuple(sorted(data["options"].items())),
        setup=tuple(data["setup"]),
        characters=tuple(character_from(c) for c in data["characters"]),
        phase_id=data["phase_id"],
        day=data["day"],
        lovers=tuple(data["lovers"]),
        runoff=(
            None
            if runoff is None
            else Runoff(tuple(runoff["standing"]), tuple(runoff["tied"]), runoff["places"])
        ),
        defendants=tuple(data["defendants"]),
        rabble=data["rabble"],
        silenced=data["silenced"],
        last_lynch=(
            None if data["last_lynch"] is None else tuple(tuple(p) for p in data["last_lynch"])
        ),
        public_log=tuple(event_from(e) for e in data["public_log"]),
        stamp=data["stamp"],
        actions=tuple(sorted(data["actions"].items())),
        result=(
            None
            if result is None
            else Result(tuple(result["winners"]), result["path"], tuple(result["players"]))
        ),
        removed=tuple(data.get("removed", ())),
        night_removed=tuple(data.get("night_removed", ())),
        modkilled=tuple(data.get("modkilled", ())),
    )
    if "known_teams" not in data["characters"][0]:  # stored before team lists were remembered
        state = replace(state, characters=introduce(state.characters, table))
    if data["pending"] is not None:
        state = replace(state, pending=night_from(data["pending"], state, table))
    return state
