"""Who knows whom (rules: Factions and roles; Succubus; Masons): wolves and Weregerbils know
their faction, Masons know the Masons; anyone who joins learns them and they learn the
newcomer.

A team list never shrinks except by a public death: each character remembers everyone it
was told belongs to a team (`Character.known_teams`), and is shown the living ones. So a
Mason bitten into a Weregerbil, or seduced into a Villager, still appears in his partners'
list, and they learn nothing of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Container, Iterable, Mapping

from engine.werewolf.characters import Character, faction_of
from engine.werewolf.table import RoleTable


def teams_of(character: Character, table: RoleTable) -> frozenset[str]:
    """The teams the character belongs to now."""
    teams = set()
    faction = faction_of(character, table.by_name)
    if faction in table.knowing_factions():
        teams.add(faction)
    if table.by_name[character.role].knows_role:
        teams.add(character.role)
    return frozenset(teams)


def team_members(characters: tuple[Character, ...], team: str, table: RoleTable) -> tuple[str, ...]:
    """The living members of `team` now (the truth, which no player is shown directly)."""
    return tuple(c.name for c in characters if c.alive and team in teams_of(c, table))


def introduce(characters: tuple[Character, ...], table: RoleTable) -> tuple[Character, ...]:
    """At the start every member of a team learns the others (wolves, Weregerbils, Masons)."""
    return tuple(
        _with_known(
            c,
            {
                team: tuple(m for m in team_members(characters, team, table) if m != c.name)
                for team in teams_of(c, table)
            },
        )
        for c in characters
    )


def learn(character: Character, team: str, names: Iterable[str]) -> Character:
    """`character` is told that `names` belong to `team` (a list only ever grows)."""
    known = known_teams(character)
    members = known.get(team, ())
    known[team] = members + tuple(n for n in names if n not in members and n != character.name)
    return _with_known(character, known)


def known_teams(character: Character) -> dict[str, tuple[str, ...]]:
    return {team: tuple(members) for team, members in character.known_teams}


def shown_teams(character: Character, living: Container[str]) -> dict[str, list[str]]:
    """The team lists a player is shown: everyone it was told of, less the dead (every
    death is public by the time a view can show it); `living` holds the living names."""
    return {
        team: [m for m in members if m in living] for team, members in sorted(character.known_teams)
    }


def _with_known(character: Character, known: Mapping[str, tuple[str, ...]]) -> Character:
    return replace(
        character,
        known_teams=tuple(sorted((team, tuple(members)) for team, members in known.items())),
    )
