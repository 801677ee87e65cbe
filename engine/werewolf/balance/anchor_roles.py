"""The Fox of the standard anchor's server (docs/balance.md: Calibration against human
play), as an extra role the balance study plays that setup with; never a built-in role,
so no host's game has it unless they load it themselves.

On ruru-jinro.net the Fox (妖狐) steals the win: when either side meets its condition
(no wolf left; the wolves as many as the humans) with the Fox alive, the Fox alone wins,
so the village wins only once the wolves and the Fox are dead. The Fox counts for neither
side when the wolves' numbers are compared (an extra faction, engine.werewolf.victory);
the wolves' attack does not kill it; it dies when the Seer divines it. pbp's own Werehamster is the
source's role and differs (it counts as a villager, can be killed, and turns a Seer who
sees it), so the anchor would be mis-scored with it."""

from __future__ import annotations

from dataclasses import replace

from typing import Mapping

from engine.werewolf.model import VILLAGE, WEREHAMSTER, WOLVES, Night, NightStep, Role, Victory
from engine.werewolf.orders import See

FOX = "fox"


def fox_night(night: Night) -> Night:
    """After the Seer (the same step, extra roles last): the pack's attack on a Fox fails,
    and a Fox the Seer divined tonight dies at dawn."""
    if night.wolf_target is not None and night.faction(night.wolf_target) == FOX:
        night = replace(night, wolf_target=None)
    for seer in night.actors("seer"):
        target = night.target_of(seer.name, See)
        if target is not None and night.faction(target) == FOX:
            night = night.will_die(target, "divined")
    return night


def fox_steals(living: Mapping[str, int]) -> bool:
    """The Fox lives and a side has won: no wolf is left, or the wolves are as many as the
    humans (checked whenever victory is, as the server does)."""
    wolves = living.get(WOLVES, 0)
    humans = living.get(VILLAGE, 0) + living.get(WEREHAMSTER, 0)
    return living.get(FOX, 0) > 0 and (wolves == 0 or wolves >= humans)


ROLE = Role(
    name=FOX,
    faction=FOX,
    night_step=NightStep.SEER,
    resolve=fox_night,
    victory=Victory(FOX, "fox-steals", fox_steals),
    summary=(
        "The wolves cannot kill you and the Seer's vision does; you win alone if alive at the end."
    ),
)
