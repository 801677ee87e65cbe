"""Werewolf (rules: Night, Werewolves): the target is the player most named by the living
wolves' KILL; a tie (option) kills nobody or is drawn. Wolves know each other."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from engine.errors import Wording
from engine.werewolf.characters import Character
from engine.werewolf.model import WOLVES, Night, NightStep, OrderKind, Role
from engine.werewolf.orders import Kill
from engine.werewolf.tally import most_named


def not_a_packmate(me: Character, target: str | None, known: Mapping[str, Any]) -> Wording | None:
    if target in known.get("teams", {}).get(WOLVES, ()):
        return Wording(
            "%(target)s is one of your pack; name someone outside it.", {"target": str(target)}
        )
    return None


def hunt(night: Night) -> Night:
    """All wolves who may KILL (Werewolves and Howlers) choose together. A KILL aimed at
    someone already dead tonight still counts and kills nobody; every hunter is told at
    dawn what the pack's KILLs were and whether they agreed."""
    hunters = [
        c
        for c in night.characters
        if c.alive
        and c.name not in night.changed
        and any(kind.order is Kill for kind in night.roles[c.role].orders)
    ]
    kills = {wolf.name: order.target for wolf in hunters if (order := night.order(wolf.name, Kill))}
    top = most_named(kills.values())
    tie = len(top) > 1
    if tie:
        top = (night.rng("wolf-tie").choice(top),) if night.option("wolf_tie") == "random" else ()
    target = top[0] if top and not night.is_out(top[0]) else None
    for wolf in hunters:
        night = night.report(
            wolf.name, "pack_kills", night=night.number, kills=kills, tie=tie, target=target
        )
    if target is None:
        return night
    return replace(night, wolf_target=target).used("kill")


KILL = OrderKind(
    Kill,
    check=not_a_packmate,
    note="the wolves' victim is the player most named by the pack",
    team=WOLVES,
    lone_note="you hunt alone: your KILL names the victim",
)

ROLE = Role(
    name="werewolf",
    faction=WOLVES,
    knows_faction=True,
    summary="Each night the pack kills one player; you know the other wolves.",
    night_step=NightStep.WEREWOLVES,
    resolve=hunt,
    orders=(KILL,),
)
