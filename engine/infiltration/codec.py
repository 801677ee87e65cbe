"""Infiltration's game state to and from plain JSON (the form saved games are stored in)."""

from __future__ import annotations

from typing import Any, Mapping

from engine.infiltration.rooms import ROOMS
from engine.infiltration.state import GameState, Step
from engine.infiltration.pieces import Character, Guard, Slot
from engine.infiltration.victory import victory_result


def to_json(state: GameState) -> dict[str, Any]:
    return {
        "seed": state.seed,
        "options": dict(state.options),
        "turn": state.turn,
        "step": state.step.value,
        "characters": [
            {
                "name": c.name,
                "team": c.team,
                "role": c.role,
                "npc": c.npc,
                "room": c.room,
                "alive": c.alive,
                "stinger": c.stinger,
                "knows_code": c.knows_code,
                "died_turn": c.died_turn,
                "cause": c.cause,
                "seen_feature": c.seen_feature,
                "seen_condition": c.seen_condition,
            }
            for c in state.characters.values()
        ],
        "guards": [
            {"floor": g.floor, "room": g.room, "plan": g.plan, "alive": g.alive}
            for g in state.guards.values()
        ],
        "layout": {
            room: [slot.kind, slot.tid, slot.hacked, slot.destroyed]
            for room, slot in state.layout.items()
        },
        "code": state.code,
        "initial_reds": state.initial_reds,
        "hangar_open": state.hangar_open,
        "locks": dict(state.locks),
        "alert_floors": list(state.alert_floors),
        "presence": [list(entry) for entry in state.presence],
        "attacks": [list(entry) for entry in state.attacks],
        "uses": [list(entry) for entry in state.uses],
        "actions": dict(state.actions),
        "red_report": dict(state.red_report),
        "last_votes": dict(state.last_votes),
        "result": state.result.to_json() if state.result else None,
    }


def from_json(data: Mapping[str, Any]) -> GameState:
    result = data.get("result")
    return GameState(
        seed=data["seed"],
        options=dict(data["options"]),
        turn=data["turn"],
        step=Step(data["step"]),
        characters={c["name"]: Character(**c) for c in data["characters"]},
        guards={g["floor"]: Guard(**g) for g in data["guards"]},
        layout={room: Slot(*data["layout"][room]) for room in ROOMS},
        code=data["code"],
        initial_reds=data["initial_reds"],
        hangar_open=data["hangar_open"],
        locks=dict(data["locks"]),
        alert_floors=tuple(data["alert_floors"]),
        presence=tuple(tuple(entry) for entry in data["presence"]),
        attacks=tuple(tuple(entry) for entry in data["attacks"]),
        uses=tuple(tuple(entry) for entry in data["uses"]),
        actions=dict(data["actions"]),
        red_report=dict(data["red_report"]),
        last_votes=dict(data["last_votes"]),
        result=(
            victory_result(result["winners"], result["path"], result["players"]) if result else None
        ),
    )
