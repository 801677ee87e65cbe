"""Who knows whom (rules: Factions and roles; Succubus): wolves and Weregerbils know their
faction, Masons know the Masons; anyone who joins learns them and they learn the newcomer."""
from __future__ import annotations

from engine.werewolf.model import Character, faction_of
from engine.werewolf.table import RoleTable


def teams_of(character: Character, table: RoleTable) -> frozenset[str]:
    teams = set()
    faction = faction_of(character, table.by_name)
    if faction in table.knowing_factions():
        teams.add(faction)
    if table.by_name[character.role].knows_role:
        teams.add(character.role)
    return frozenset(teams)


def team_members(characters, team: str, table: RoleTable) -> tuple[str, ...]:
    """The living members of `team`."""
    return tuple(c.name for c in characters if c.alive and team in teams_of(c, table))
