"""Bodyguard (rules: Night, Bodyguard): the protected player cannot be killed by the
werewolves this night. Self-protection is an option (default forbidden)."""
from __future__ import annotations

from dataclasses import replace

from engine.werewolf.model import VILLAGE, Night, NightStep, OrderKind, Role
from engine.werewolf.orders import Protect


def protect(night: Night) -> Night:
    for bodyguard in night.actors("bodyguard"):
        target = night.target_of(bodyguard.name, Protect)
        if target:
            night = replace(night, protected=night.protected + (target,)).used("protect")
    return night


ROLE = Role(
    name="bodyguard", faction=VILLAGE,
    summary="Each night you shield one player from the werewolves.",
    night_step=NightStep.BODYGUARD, resolve=protect,
    orders=(OrderKind(Protect, self_option="bodyguard_self", note="the wolves cannot kill this player tonight"),),
)
