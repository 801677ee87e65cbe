"""Apothecary (rules: Night, Apothecary; Seer): told of each of the day's lynch victims
the Seer's three answers, wolf / not wolf / third faction (never which third faction), or
"no lynch". No order."""

from __future__ import annotations

from engine.werewolf.model import VILLAGE, Night, NightStep, Role
from engine.werewolf.roles.seer import verdict


def examine(night: Night) -> Night:
    if night.last_lynch is None:
        return night  # night 0 of a night-first game: no day has passed yet
    for apothecary in night.actors("apothecary"):
        victims = [
            {"player": name, "verdict": verdict(faction)}
            for name, faction in night.last_lynch or ()
        ]
        night = night.report(apothecary.name, "apothecary_report", victims=victims)
    return night


ROLE = Role(
    name="apothecary",
    faction=VILLAGE,
    summary=(
        "Each night you learn whether the day's lynch victims were wolves, not wolves or of a third"
        " faction."
    ),
    night_step=NightStep.APOTHECARY,
    resolve=examine,
)
