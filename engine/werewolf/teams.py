"""Who knows whom (rules: Factions and roles; Succubus; Masons): wolves and Weregerbils know
their faction, Masons know the Masons; anyone who joins learns them and they learn the
newcomer; at dawn, every role, faction and team change is reported (`change_reports`).

A team list never shrinks except by a public death: each character remembers everyone it
was told belongs to a team (`Character.known_teams`), and is shown the living ones. So a
Mason bitten into a Weregerbil, or seduced into a Villager, still appears in his partners'
list, and they learn nothing of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Container, Iterable, Mapping

from engine.core import Event
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


def change_reports(
    before: tuple[Character, ...], after: tuple[Character, ...], table: RoleTable
) -> tuple[tuple[Character, ...], dict[str, Any]]:
    """Rules: every role or faction change is told to the character at dawn; joiners of a
    team learn its members and the members learn the newcomer (both remember it: team
    lists only grow). Returns the characters with what they learnt, and the reports."""
    reports: dict[str, list[Event]] = {}
    was = {c.name: c for c in before}
    learnt = {c.name: c for c in after}
    for character in after:
        old = was[character.name]
        if not old.alive:
            continue
        faction = faction_of(character, table.by_name)
        # One who died tonight is told too: their view (and a spectator's) shows the role
        # they took before dying (a Succubus's seduction).
        if character.role != old.role:
            reports.setdefault(character.name, []).append(
                Event("new_role", {"role": character.role, "faction": faction})
            )
        elif faction != faction_of(old, table.by_name):
            reports.setdefault(character.name, []).append(
                Event("faction_changed", {"faction": faction})
            )
        if not character.alive:
            continue  # the dead join no team
        for team in sorted(teams_of(character, table) - teams_of(old, table)):
            members = [m for m in team_members(after, team, table) if m != character.name]
            reports.setdefault(character.name, []).append(
                Event("team", {"team": team, "members": members})
            )
            learnt[character.name] = learn(learnt[character.name], team, members)
            for member in members:
                reports.setdefault(member, []).append(
                    Event("newcomer", {"team": team, "player": character.name})
                )
                learnt[member] = learn(learnt[member], team, [character.name])
    return tuple(learnt[c.name] for c in after), reports
