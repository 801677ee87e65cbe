"""Rabble Rouser (rules: Night, Rabble Rouser): once per game, ROUSE: the next trial
lynches both defendants without a vote."""

from __future__ import annotations

from dataclasses import replace

from engine.werewolf.model import VILLAGE, Night, NightStep, OrderKind, Role, Target
from engine.werewolf.orders import Rouse


def rouse(night: Night) -> Night:
    for rouser in night.actors("rabble rouser"):
        if night.order(rouser.name, Rouse) and not rouser.state("roused"):
            night = replace(night, rabble=True).used("rouse")
            night = night.with_character(
                rouser.name, role_state=rouser.with_state("roused", True).role_state
            )
    return night


ROLE = Role(
    name="rabble rouser",
    faction=VILLAGE,
    summary="Once per game you may rouse the rabble: the next trial lynches both defendants.",
    night_step=NightStep.RABBLE_ROUSER,
    resolve=rouse,
    initial_state=(("roused", False),),
    orders=(
        OrderKind(
            Rouse,
            target=Target.NONE,
            once="roused",
            note="the next trial lynches both defendants without a vote (once per game)",
        ),
    ),
)
