"""The validity check's view of the game (rules: Validity check grammar).

`StateWorld` implements the `ValidityWorld` protocol of `validity_facts.py` over the state as it
is when step 3 (terminals) begins; statements are evaluated against it and nothing else.
"""

from __future__ import annotations

from functools import cached_property

from engine.infiltration.state import GameState
from engine.infiltration.pieces import guard_name


class StateWorld:
    def __init__(self, state: GameState):
        self._state = state

    @cached_property
    def _presence(self) -> set[tuple[int, str, str]]:
        return {(turn, room, name) for turn, room, name, _feature in self._state.presence}

    @cached_property
    def _rooms_visited(self) -> set[tuple[str, str]]:
        return {(name, room) for _turn, room, name, _feature in self._state.presence}

    @cached_property
    def _features_visited(self) -> set[tuple[str, str]]:
        return {(name, feature) for _turn, _room, name, feature in self._state.presence}

    @cached_property
    def _attacks(self) -> set[tuple[int, str, str]]:
        return set(self._state.attacks)

    @cached_property
    def _uses(self) -> set[tuple[int, str, str]]:
        return set(self._state.uses)

    def is_alive(self, name: str) -> bool:
        character = self._state.characters.get(name)
        return bool(character and character.alive)

    def room_of(self, name: str) -> str | None:
        character = self._state.characters.get(name)
        return character.room if character and character.alive else None

    def was_in(self, name: str, room: str, turn: int) -> bool:
        return (turn, room, name) in self._presence

    def has_stinger(self, name: str) -> bool:
        character = self._state.characters.get(name)
        return bool(character and character.stinger)

    def visited_room(self, name: str, room: str) -> bool:
        return (name, room) in self._rooms_visited

    def visited_feature(self, name: str, feature: str) -> bool:
        return (name, feature) in self._features_visited

    def attacked(self, name: str, target: str, turn: int) -> bool:
        if target.lower().startswith("guard "):
            target = guard_name(target[-1].upper())
        return (turn, name, target) in self._attacks

    def used(self, name: str, terminal: str, turn: int) -> bool:
        return (turn, name, terminal) in self._uses

    def room_has(self, room: str, feature: str) -> bool:
        return self._state.layout[room].kind == feature

    def terminal_is(self, room: str, condition: str) -> bool:
        slot = self._state.layout[room]
        if not slot.is_terminal:
            return False
        return (
            slot.destroyed
            if condition.upper() == "DESTROYED"
            else (slot.hacked and not slot.destroyed)
        )

    def guard_in(self, floor: str, room: str) -> bool:
        guard = self._state.guards[floor]
        return guard.alive and guard.room == room

    def guard_dead(self, floor: str) -> bool:
        return not self._state.guards[floor].alive

    def code(self) -> str:
        return self._state.code

    def hangar_open(self) -> bool:
        return self._state.hangar_open
