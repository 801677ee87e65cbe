"""Villager (rules: Factions and roles): no power; finds the wolves by talk and vote."""

from engine.werewolf.model import VILLAGE, Role

ROLE = Role(
    name="villager",
    faction=VILLAGE,
    summary="You have no night power: find the wolves by talking and voting.",
)
