"""Ninja (rules: Night, Ninja): the target dies at once and takes no part in the rest of
the night; announced at dawn as killed in the night."""

from __future__ import annotations

from engine.werewolf.model import VILLAGE, Night, NightStep, OrderKind, Role
from engine.werewolf.orders import Strike


def strike(night: Night) -> Night:
    for ninja in night.actors("ninja"):
        if night.is_out(ninja.name):
            continue
        target = night.target_of(ninja.name, Strike)
        if target:
            night = night.kill_now(target, "ninja").used("strike")
    return night


ROLE = Role(
    name="ninja",
    faction=VILLAGE,
    summary="Each night you kill one player at once.",
    night_step=NightStep.NINJA,
    resolve=strike,
    orders=(OrderKind(Strike, note="the player dies at once"),),
)
