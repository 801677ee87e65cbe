"""Howler (rules: Night, Howler; Day §5): a werewolf who may also SILENCE a player for
the coming day, not the one silenced the night before."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from engine.errors import Wording
from engine.werewolf.characters import Character
from engine.werewolf.model import WOLVES, Night, NightStep, OrderKind, Role
from engine.werewolf.orders import Silence
from engine.werewolf.roles.werewolf import KILL


def not_the_same_twice(
    me: Character, target: str | None, known: Mapping[str, Any]
) -> Wording | None:
    if target is not None and target == me.state("last_silenced"):
        return Wording(
            "you silenced %(target)s last night; choose someone else.", {"target": target}
        )
    return None


def howl(night: Night) -> Night:
    for howler in night.actors("howler"):
        target = night.target_of(howler.name, Silence)
        night = night.with_character(
            howler.name, role_state=howler.with_state("last_silenced", target).role_state
        )
        if target:
            night = replace(night, silenced=target).used("silence")
    return night


ROLE = Role(
    name="howler",
    faction=WOLVES,
    knows_faction=True,
    summary="You are a werewolf who may also silence one player for the coming day.",
    night_step=NightStep.HOWLER,
    resolve=howl,
    initial_state=(("last_silenced", None),),
    orders=(
        KILL,
        OrderKind(
            Silence,
            check=not_the_same_twice,
            note=(
                "they may vote and nominate but not post tomorrow; not the same player twice"
                " running"
            ),
        ),
    ),
)
