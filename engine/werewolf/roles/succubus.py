"""Succubus (rules: Night, Succubus): once per game, SEDUCE: resolves first; the target's
order tonight is void; roles swap at once (later steps see them); the target becomes a
Villager; the Succubus takes the role with its spent powers (never its holder's memory of
past targets) and acts in it from the next night.
Seducing a Villager wastes nothing."""

from __future__ import annotations

from dataclasses import replace

from engine.werewolf.model import VILLAGE, Night, NightStep, OrderKind, Role, inherited_state
from engine.werewolf.orders import Seduce


def seduce(night: Night) -> Night:
    for succubus in night.actors("succubus"):
        target_name = night.target_of(succubus.name, Seduce)
        if target_name is None or succubus.state("seduced"):
            continue
        target = night.character(target_name)
        if target.role == "villager":
            night = night.report(succubus.name, "seduction_wasted", target=target_name)
            continue
        villager_state = night.roles["villager"].initial_state
        taken = inherited_state(night.roles[target.role], target.role_state)
        night = night.with_character(succubus.name, role=target.role, role_state=taken)
        night = night.with_character(target_name, role="villager", role_state=villager_state)
        night = replace(night, changed=night.changed + (succubus.name, target_name)).used("seduce")
        night = night.report(target_name, "seduced")
    return night


ROLE = Role(
    name="succubus",
    faction=VILLAGE,
    summary="Once per game you seduce a player: you take their role and they become a Villager.",
    night_step=NightStep.SUCCUBUS,
    resolve=seduce,
    initial_state=(("seduced", False),),
    orders=(
        OrderKind(
            Seduce, once="seduced", note="take their role; they become a Villager (once per game)"
        ),
    ),
    takes_roles=True,
)
