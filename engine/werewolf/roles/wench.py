"""Wench (rules: Night, Wench): visits one player each night; if either dies this night
the other dies too; visiting a contagious creature (Werehamster, Weregerbil, or any role
that declares itself contagious) makes her a hybrid of its faction. The bedfellow is told
at dawn that someone visited. Missing VISIT (option): a random living player, or nobody."""

from __future__ import annotations

from dataclasses import replace

from engine.werewolf.characters import Character
from engine.werewolf.model import VILLAGE, Night, NightStep, OrderKind, Role
from engine.werewolf.orders import Visit


def disease(night: Night, character: Character) -> str | None:
    """The faction a visit to `character` passes on, if any."""
    role = night.roles[character.role]
    return character.creature or (role.faction if role.contagious else None)


def visit(night: Night) -> Night:
    for wench in night.actors("wench"):
        if night.order(wench.name, Visit) is not None:
            target = night.target_of(wench.name, Visit)
        elif night.option("wench_missing") == "random":
            others = sorted(c.name for c in night.characters if c.alive and c.name != wench.name)
            target = night.rng(f"visit/{wench.name}").choice(others) if others else None
        else:
            target = None
        if target is None:
            continue
        night = replace(night, bedfellows=night.bedfellows + ((wench.name, target),)).used("visit")
        night = night.report(target, "visited")
        caught = disease(night, night.character(target))
        if caught and caught != night.faction(wench.name):
            night = night.convert(wench.name, "creature", caught)
    return night


ROLE = Role(
    name="wench",
    faction=VILLAGE,
    summary="Each night you sleep with one player: if either of you dies that night, both die.",
    night_step=NightStep.WENCH,
    resolve=visit,
    orders=(
        OrderKind(
            Visit, note="if either of you dies tonight, both die (missing: see the game's options)"
        ),
    ),
)
