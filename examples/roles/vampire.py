"""Vampire: an extra Werewolf role, supplied by a host (docs/design.md: Extensibility).

The source says only "Vampire: details pending"; this module is one host's definition,
written against the engine's public role API and handed to
`engine.werewolf.make_ruleset(extra_roles=ROLES)`. The engine never imports it.

Rules of this Vampire:
- Faction: `vampires`, a faction of its own. Vampires know each other (like wolves).
- Night step: with the Werehamster and Weregerbils (after the Howler, before the Witch).
- Order, night: `DRAIN <player>` (every night; any living player but yourself).
  The Vampires share one drain: the player most named by the living Vampires; a tie is
  settled by a seeded draw. A drained villager-faction player becomes a Vampire thrall
  at dawn (role `vampire`, faction `vampires`; the thrall and the Vampires learn each
  other). Anyone else drained (a wolf, a Werehamster, a Weregerbil) dies at dawn
  (cause `vampire`). A villager the Weregerbils bit the same night stays theirs (their
  step comes first), and the Vampires are told at dawn the target was beyond their
  reach. Draining a fellow Vampire does nothing. A target already dead that
  night (the Ninja) does nothing.
- Contagious: a Wench who visits a Vampire becomes a Wench-Vampire hybrid (faction
  `vampires`), as the source's Wench text foresees.
- The Seer sees a Vampire as "third faction".
- Victory: checked after the Weregerbils and before the Villagers: the Vampires win when
  at least one is alive and they are at least half of the living players. While any
  Vampire lives the Villagers cannot win (they must wipe out the Vampires too); for the
  wolves' condition Vampires count for neither side.
"""

from __future__ import annotations

from typing import Mapping

from engine.werewolf.model import VILLAGE, Night, NightStep, OrderKind, Role, Victory
from engine.werewolf.orders import TargetOrder

VAMPIRES = "vampires"


class Drain(TargetOrder):
    keyword = "DRAIN"


def drain(night: Night) -> Night:
    """The Vampires' shared drain: a villager becomes a thrall at dawn, anyone else dies."""
    target = night.shared_target("vampire", Drain, "drain")
    if target is None:
        return night
    night = night.used("drain")
    faction = night.faction(target)
    if faction == VILLAGE:
        return night.convert(target, "role", "vampire", by="vampire")
    if faction == VAMPIRES:
        return night
    return night.will_die(target, "vampire")


def vampires_win(living: Mapping[str, int]) -> bool:
    vampires = living.get(VAMPIRES, 0)
    return vampires >= 1 and 2 * vampires >= sum(living.values())


ROLE = Role(
    name="vampire",
    faction=VAMPIRES,
    knows_faction=True,
    contagious=True,
    blocks_village_win=True,
    summary=(
        "Each night the Vampires drain one player: a villager becomes your thrall,"
        " anyone else dies."
    ),
    night_step=NightStep.CREATURES,
    resolve=drain,
    orders=(
        OrderKind(Drain, note="a villager becomes a Vampire thrall at dawn; anyone else dies"),
    ),
    victory=Victory(VAMPIRES, "vampires-half", vampires_win),
)

ROLES = (ROLE,)
