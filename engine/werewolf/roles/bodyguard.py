"""Bodyguard (rules: Night, Bodyguard): the protected player cannot be killed by the
werewolves this night. Self-protection is an option (default forbidden); so is protecting
the same player on consecutive nights (default allowed)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from engine.werewolf.characters import Character
from engine.werewolf.model import VILLAGE, Night, NightStep, OrderKind, Role
from engine.werewolf.orders import Protect


def not_twice_running(me: Character, target: str | None, known: Mapping[str, Any]) -> str | None:
    """Option bodyguard_repeat=forbidden: not the player he protected the night before."""
    if (
        known.get("options", {}).get("bodyguard_repeat") == "forbidden"
        and target is not None
        and target == me.state("last_protected")
    ):
        return (
            f"you protected {target} last night, and this game forbids the same player twice"
            " running."
        )
    return None


def protect(night: Night) -> Night:
    for bodyguard in night.actors("bodyguard"):
        target = night.target_of(bodyguard.name, Protect)
        night = night.with_character(
            bodyguard.name, role_state=bodyguard.with_state("last_protected", target).role_state
        )
        if target:
            night = replace(night, protected=night.protected + (target,)).used("protect")
    return night


ROLE = Role(
    name="bodyguard",
    faction=VILLAGE,
    summary="Each night you shield one player from the werewolves.",
    night_step=NightStep.BODYGUARD,
    resolve=protect,
    initial_state=(("last_protected", None),),
    orders=(
        OrderKind(
            Protect,
            self_option="bodyguard_self",
            check=not_twice_running,
            note="the wolves cannot kill this player tonight",
        ),
    ),
)
