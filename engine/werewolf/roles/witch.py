"""Witch (rules: Night, Witch; Nn-witch): told the wolves' chosen target (or none); may
SAVE it (once per game; also herself; spent even on a protected target) and/or POISON
someone (once per game)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from engine.errors import Wording
from engine.werewolf.characters import Character
from engine.werewolf.model import VILLAGE, Night, NightStep, OrderKind, Role, Target
from engine.werewolf.orders import Poison, Save


def save_refusal(me: Character, target: str | None, known: Mapping[str, Any]) -> Wording | None:
    """She is told the wolves' target; with none there is nothing to save."""
    if known.get("wolves_target") is None:
        return Wording("the wolves chose nobody tonight, so there is no one to save.")
    return None


def brew(night: Night) -> Night:
    for witch in night.actors("witch"):
        # A SAVE of a target who is already dead (the host removed them) saves nobody and
        # is not spent.
        if (
            night.order(witch.name, Save)
            and not witch.state("save_used")
            and night.wolf_target
            and not night.is_out(night.wolf_target)
        ):
            night = replace(night, saved=True).used("save")
            night = night.with_character(
                witch.name, role_state=witch.with_state("save_used", True).role_state
            )
            witch = night.character(witch.name)
        target = night.target_of(witch.name, Poison)
        if target and not witch.state("poison_used"):
            night = night.will_die(target, "poison").used("poison")
            night = night.with_character(
                witch.name, role_state=witch.with_state("poison_used", True).role_state
            )
    return night


ROLE = Role(
    name="witch",
    faction=VILLAGE,
    summary=(
        "Each night you are told the wolves' target: once per game you may SAVE it, and once POISON"
        " someone."
    ),
    night_step=NightStep.WITCH,
    resolve=brew,
    initial_state=(("poison_used", False), ("save_used", False)),
    orders=(
        OrderKind(
            Save,
            phase_kind="witch",
            target=Target.NONE,
            once="save_used",
            check=save_refusal,
            note="save the wolves' target tonight (once per game)",
        ),
        OrderKind(
            Poison,
            phase_kind="witch",
            target=Target.OTHER,
            once="poison_used",
            note="the player dies at dawn (once per game)",
        ),
    ),
)
