"""A Werewolf game's characters (rules: Factions and roles): who plays which role, alive or
dead and why, a hybrid's creature, what each was told; the faction a character counts for
and the role it shows when roles are revealed.

Everything here is a frozen value; a change is a new value made with `replace`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping, Protocol

from engine.core import Event


class HasFaction(Protocol):
    """What a character needs of a role: the faction it counts for. (The role's card,
    engine.werewolf.model.Role, is declared with its night, which is made of characters,
    so naming it here would make the two modules import each other.)"""

    @property
    def faction(self) -> str: ...


@dataclass(frozen=True)
class Character:
    """One player's character. `creature` is the faction a Wench or Seer hybrid caught
    (it stays with the person); `joined` stamps when the character last joined its
    faction (the youngest Weregerbil has the highest stamp); `known_teams` holds, per team
    the character was ever shown, everyone it was told belongs to it (engine.werewolf.teams)."""

    name: str
    role: str
    alive: bool = True
    creature: str | None = None
    role_state: tuple[tuple[str, Any], ...] = ()
    joined: int = 0
    death_cause: str | None = None
    death_phase: str | None = None
    inbox: tuple[Event, ...] = ()
    known_teams: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def state(self, key: str, default: Any = None) -> Any:
        return dict(self.role_state).get(key, default)

    def with_state(self, key: str, value: Any) -> "Character":
        values = dict(self.role_state)
        values[key] = value
        return replace(self, role_state=tuple(sorted(values.items())))


def faction_of(character: Character, roles: Mapping[str, HasFaction]) -> str:
    """Rules: a character's faction is its current role's faction, except that a hybrid
    takes the creature's faction."""
    return character.creature or roles[character.role].faction


def revealed_role(character: Character) -> str:
    """The role shown when roles are revealed: a hybrid by both parts (`wench-weregerbil`)."""
    return f"{character.role}-{character.creature}" if character.creature else character.role


def kill(
    characters: tuple[Character, ...], name: str, cause: str, phase_id: str
) -> tuple[Character, ...]:
    """The characters with `name` dead of `cause` (nothing changes for the already dead)."""
    return tuple(
        (
            replace(c, alive=False, death_cause=cause, death_phase=phase_id)
            if c.name == name and c.alive
            else c
        )
        for c in characters
    )


def update(characters: tuple[Character, ...], name: str, **changes: Any) -> tuple[Character, ...]:
    return tuple(replace(c, **changes) if c.name == name else c for c in characters)


def find(characters: tuple[Character, ...], name: str) -> Character:
    for character in characters:
        if character.name == name:
            return character
    raise KeyError(name)
