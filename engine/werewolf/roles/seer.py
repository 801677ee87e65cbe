"""Seer (rules: Night, Seer): learns wolf / not wolf / third faction of one living player;
seeing a Werehamster makes her a Werehamster too (she keeps her power)."""

from __future__ import annotations

from engine.werewolf.model import VILLAGE, WEREHAMSTER, WOLVES, Night, NightStep, OrderKind, Role
from engine.werewolf.orders import See


def verdict(faction: str) -> str:
    if faction == WOLVES:
        return "wolf"
    if faction == VILLAGE:
        return "not wolf"
    return "third faction"


def see(night: Night) -> Night:
    for seer in night.actors("seer"):
        order = night.order(seer.name, See)
        if order is None:
            continue
        if night.is_out(order.target):
            night = night.report(seer.name, "vision_failed", target=order.target)
            continue
        faction = night.faction(order.target)
        night = night.used("see").report(
            seer.name, "vision", target=order.target, verdict=verdict(faction)
        )
        if faction == WEREHAMSTER and seer.creature != WEREHAMSTER:
            night = night.convert(seer.name, "creature", WEREHAMSTER)
    return night


ROLE = Role(
    name="seer",
    faction=VILLAGE,
    summary=(
        "Each night you learn whether one living player is a wolf, not a wolf, or of a third"
        " faction."
    ),
    night_step=NightStep.SEER,
    resolve=see,
    orders=(OrderKind(See, note="learn: wolf, not wolf, or third faction"),),
)
