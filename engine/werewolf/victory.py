"""Victory (rules: Victory): checked at dawn, after each lynch and after a host kill; the
first condition that holds, in the rules' order, ends the game."""

from __future__ import annotations

from collections import Counter

from engine.core import Result
from engine.werewolf.characters import Character, faction_of
from engine.werewolf.model import VILLAGE, WEREGERBIL, WEREHAMSTER, WOLVES
from engine.werewolf.table import RoleTable


def living_by_faction(characters: tuple[Character, ...], table: RoleTable) -> Counter[str]:
    return Counter(faction_of(c, table.by_name) for c in characters if c.alive)


def weregerbils_win(living: Counter[str]) -> bool:
    """Rule 1: at least one Weregerbil alive, and at least as many as the living wolves and
    as the living villager faction (Werehamsters included)."""
    gerbils = living[WEREGERBIL]
    return (
        gerbils >= 1
        and gerbils >= living[WOLVES]
        and gerbils >= living[VILLAGE] + living[WEREHAMSTER]
    )


def villagers_win(living: Counter[str], table: RoleTable) -> bool:
    """Rule 2: no wolf is alive (nor any faction an extra role says the village must remove)."""
    return all(living[faction] == 0 for faction in table.village_must_remove())


def wolves_win(living: Counter[str]) -> bool:
    """Rule 3: at the start of a day, living wolves ≥ living villager faction (Werehamsters
    count as villager faction; Weregerbils and extra factions count for neither side)."""
    return living[WOLVES] >= living[VILLAGE] + living[WEREHAMSTER]


def check_victory(
    characters: tuple[Character, ...], table: RoleTable, start_of_day: bool
) -> Result | None:
    living = living_by_faction(characters, table)
    winner = None
    if weregerbils_win(living):
        winner = (WEREGERBIL, "weregerbils-outnumber")
    for victory in table.victories():
        if winner is None and victory.holds(living):
            winner = (victory.faction, victory.path)
    if winner is None and villagers_win(living, table):
        winner = (VILLAGE, "no-wolves-left")
    if winner is None and start_of_day and wolves_win(living):
        winner = (WOLVES, "wolves-parity")
    if winner is None:
        return None
    return result_for(characters, table, *winner)


def result_for(
    characters: tuple[Character, ...], table: RoleTable, faction: str, path: str
) -> Result:
    """Winners: the faction (its members living or dead) and, as well, every Werehamster
    alive at the end. Lovers win or lose with their own factions."""
    winners = [faction]
    players = [c.name for c in characters if faction_of(c, table.by_name) == faction]
    hamsters = [
        c.name for c in characters if c.alive and faction_of(c, table.by_name) == WEREHAMSTER
    ]
    if hamsters and faction != WEREHAMSTER:
        winners.append(WEREHAMSTER)
        players.extend(hamsters)
    return Result(tuple(winners), path, tuple(players))
