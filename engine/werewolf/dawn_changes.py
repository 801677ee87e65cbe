"""What changes at dawn (rules: Night, Death chains): the night's deaths with their chains,
the bites and infections that take effect, and the reports of every role, faction and team
change. `engine.werewolf.night.dawn` applies them in the rulebook's order."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import Event
from engine.werewolf.characters import Character, faction_of
from engine.werewolf.model import Night
from engine.werewolf.table import RoleTable
from engine.werewolf.teams import learn, team_members, teams_of


def deaths_at_dawn(night: Night, removed: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """Every death of the night with its first cause, chains applied until nothing changes
    (rules: Death chains): Wench and bedfellow, lovers. `removed` are the players the host
    removed during the night: already dead and announced, but their chains wait for dawn."""
    dying: list[tuple[str, str]] = []
    if night.wolf_target and night.wolf_target not in night.protected and not night.saved:
        dying.append((night.wolf_target, "wolves"))
    dying.extend(night.dying)
    dead = {name for name, _ in dying if not night.is_out(name)}
    dying = [(name, cause) for name, cause in dying if name in dead]
    dying = first_cause_only(dying)
    dead |= set(removed)  # chain sources, not deaths of their own at dawn
    changed = True
    while changed:
        changed = False
        gone = dead | {c.name for c in night.characters if not c.alive}
        for wench, bedfellow in night.bedfellows:
            for one, other in ((wench, bedfellow), (bedfellow, wench)):
                if one in dead and other not in gone:
                    dying.append((other, "wench"))
                    dead.add(other)
                    changed = True
        if len(night.lovers) == 2:
            for one, other in (night.lovers, night.lovers[::-1]):
                if one in dead and other not in gone and other not in dead:
                    dying.append((other, "lover"))
                    dead.add(other)
                    changed = True
    return dying


def first_cause_only(dying: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A character who dies of several causes is counted once, by the first in night order."""
    seen, kept = set(), []
    for name, cause in dying:
        if name not in seen:
            seen.add(name)
            kept.append((name, cause))
    return kept


def apply_conversions(
    night: Night, table: RoleTable, characters: tuple[Character, ...]
) -> tuple[Character, ...]:
    """Bites, infections: role and creature changes that take effect at dawn (dead: none)."""
    for name, what, value in night.conversions:
        character = next(c for c in characters if c.name == name)
        if not character.alive:
            continue
        if what == "role":
            changes: dict[str, Any] = {
                "role": value,
                "creature": None,
                "role_state": table.by_name[value].initial_state,
            }
        else:
            changes = {"creature": value}
        characters = tuple(replace(c, **changes) if c.name == name else c for c in characters)
    return characters


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
