"""Weregerbil (rules: Night, Weregerbils): one shared BITE, the most-named target (ties by
seeded draw). A villager-faction target becomes a plain Weregerbil; a wolf target: the
youngest Weregerbil dies (ties by draw); anyone else: nothing. Weregerbils know each
other; contagious for the Wench."""

from __future__ import annotations

from engine.werewolf.model import VILLAGE, WEREGERBIL, WOLVES, Night, NightStep, OrderKind, Role
from engine.werewolf.orders import Bite


def bite(night: Night) -> Night:
    target = night.shared_target("weregerbil", Bite, "bite")
    if target is None:
        return night
    night = night.used("bite")
    faction = night.faction(target)
    if faction == VILLAGE:
        return night.convert(target, "role", "weregerbil", by="weregerbil")
    if faction == WOLVES:
        gerbils = [c for c in night.characters if c.alive and night.faction(c.name) == WEREGERBIL]
        if not gerbils:
            return night
        youngest = max(c.joined for c in gerbils)
        candidates = sorted(c.name for c in gerbils if c.joined == youngest)
        victim = (
            night.rng("youngest-gerbil").choice(candidates)
            if len(candidates) > 1
            else candidates[0]
        )
        return night.will_die(victim, "gerbil")
    return night


ROLE = Role(
    name="weregerbil",
    faction=WEREGERBIL,
    knows_faction=True,
    contagious=True,
    summary=(
        "Each night the Weregerbils bite one player: a villager joins you; biting a wolf kills your"
        " youngest."
    ),
    night_step=NightStep.CREATURES,
    resolve=bite,
    orders=(OrderKind(Bite, note="a villager becomes a Weregerbil; a wolf kills your youngest"),),
)
