"""A Werewolf game between phases (rules: Day; Night): its characters, the lovers, the
last lynch, and a pending runoff or night.

Everything here is a frozen value; a change is a new value made with `replace`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Iterable

from engine.core import Event, Result
from engine.werewolf.characters import Character
from engine.werewolf.model import Night


# --------------------------------------------------------------------------- the game
@dataclass(frozen=True)
class Runoff:
    """A runoff round (rules: Day §2): `standing` won places outright, `tied` compete
    for the `places` left."""

    standing: tuple[str, ...]
    tied: tuple[str, ...]
    places: int


@dataclass(frozen=True)
class GameState:
    seed: str
    options: tuple[tuple[str, Any], ...]
    setup: tuple[str, ...]
    characters: tuple[Character, ...]
    phase_id: str = "N0"
    day: int = 0
    lovers: tuple[str, ...] = ()
    runoff: Runoff | None = None
    defendants: tuple[str, ...] = ()
    rabble: bool = False
    silenced: str | None = None
    last_lynch: tuple[tuple[str, str], ...] | None = None
    pending: Night | None = None
    public_log: tuple[Event, ...] = ()
    stamp: int = 0
    actions: tuple[tuple[str, int], ...] = ()
    result: Result | None = None
    # Host removals: in the open phase (their orders still stand), during the night in
    # progress (their chains wait for dawn), and for breaking the rules (modkill_loses).
    removed: tuple[str, ...] = ()
    night_removed: tuple[str, ...] = ()
    modkilled: tuple[str, ...] = ()

    def option(self, name: str) -> Any:
        return dict(self.options)[name]

    def character(self, name: str) -> Character:
        return self._by_name[name]

    @cached_property
    def _by_name(self) -> dict[str, Character]:
        # Like `living` (docs/design.md: Simulation speed without changing a game): made
        # once per state value, since every check and view asks for characters by name.
        return {c.name: c for c in self.characters}

    @cached_property
    def living(self) -> tuple[str, ...]:
        # Computed once per state value (a change makes a new value): it is asked often.
        return tuple(c.name for c in self.characters if c.alive)

    def count_actions(self, keywords: Iterable[str]) -> "GameState":
        counts = dict(self.actions)
        for keyword in keywords:
            counts[keyword] = counts.get(keyword, 0) + 1
        return replace(self, actions=tuple(sorted(counts.items())))
