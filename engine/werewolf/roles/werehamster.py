"""Werehamster (rules: Factions; Victory): a third faction with no action; counts as
villager faction for the wolves' and villagers' conditions; wins as well if alive when
the game ends. Contagious: a Wench who visits, or a Seer who sees it, becomes one."""

from engine.werewolf.model import WEREHAMSTER, NightStep, Role

ROLE = Role(
    name="werehamster",
    faction=WEREHAMSTER,
    night_step=NightStep.CREATURES,
    contagious=True,
    summary="You win if you are alive when the game ends, whoever else wins.",
)
