"""The game state of Infiltration: immutable values that round-trip through plain JSON
(`codec.py`), holding the pieces of `pieces.py` (characters, guards, rooms' slots).

Nothing here decides a rule; the rule modules read a `GameState` and return a new one
(`evolve`, a quicker `dataclasses.replace`). Mappings held by a state are never changed
after the state is built: every change goes through `with_character`, `with_guard`,
`with_layout` … which copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, ClassVar, Iterable, Mapping

from engine.core import Result
from engine.infiltration.evolve import evolve
from engine.infiltration.rooms import room_order
from engine.names import keyed_names
from engine.infiltration.pieces import Character, Guard, Slot

GREEN, RED, NEUTRAL = "green", "red", "neutral"
TEAMS = (GREEN, RED, NEUTRAL)
CLASSES = ("warrior", "hacker", "sneaker", "renegade", "engineer")
PLAYER_CLASSES = ("warrior", "hacker", "sneaker")
# Classes whom guards do not see (rules: Alert, Combat §2).
UNSEEN_BY_GUARDS = ("sneaker", "renegade")
# Classes told that a terminal is hacked, and allowed to RESTORE it (rules: Arrival, classes).
TECHNICIANS = ("hacker", "engineer")


class Step(StrEnum):
    """Where a game stands: turn 0's class choice, a turn's movement or decision phase, or
    over. The value is the phase id's suffix and the saved form."""

    CLASS = "class"
    MOVEMENT = "movement"
    DECISION = "decision"
    OVER = "over"


_EMPTY_ROOM: tuple[list["Character"], list["Guard"], list["Character"], list["Guard"]] = (
    [],
    [],
    [],
    [],
)


@dataclass(frozen=True)
class GameState:
    seed: str
    options: Mapping[str, Any]
    turn: int
    step: Step
    characters: Mapping[str, Character]  # by name, sorted by name
    guards: Mapping[str, Guard]  # by floor letter
    layout: Mapping[str, Slot]  # by room
    code: str
    initial_reds: int
    hangar_open: bool = False
    locks: Mapping[str, int] = field(default_factory=dict)  # room -> turn it was set
    alert_floors: tuple[str, ...] = ()  # floors where an Alert condition holds now
    # Logs (host-side; only views and events let parts of them out):
    presence: tuple[tuple[int, str, str, str], ...] = ()  # (turn, room, name, feature)
    attacks: tuple[tuple[int, str, str], ...] = ()  # (turn, attacker, target)
    uses: tuple[tuple[int, str, str], ...] = ()  # (turn, user, terminal)
    actions: Mapping[str, int] = field(default_factory=dict)  # statistics counters
    red_report: Mapping[str, int] = field(default_factory=dict)  # room -> living characters
    last_votes: Mapping[str, str] = field(default_factory=dict)  # voter -> choice (last lynch)
    result: Result | None = None

    # ------------------------------------------------------------------ phase ids
    @property
    def phase_id(self) -> str:
        if self.step == Step.CLASS:
            return "T0-class"
        return f"T{self.turn}-{self.step}"

    # Cached values made from a few fields alone, which `evolve` hands on to a copy where
    # those fields are unchanged: a resolution copies its state several times after the
    # reports have asked who is where, and the views ask again of the state it ends with.
    CARRIED: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "names_by_key": ("characters",),
        "living_names": ("characters",),
        "living_player_names": ("characters",),
        "red_names": ("characters",),
        "by_room": ("characters", "guards"),
        "sights": ("characters", "guards"),
        "dead_by_room": ("characters", "guards"),
        "presence_of": ("presence",),
        "guards_present": ("presence",),
        "histories": ("presence",),
    }

    # ------------------------------------------------------------------ queries
    # What every order parsed against this state looks names up in, made once per state
    # (a state never changes) rather than once per order block.
    @cached_property
    def names_by_key(self) -> dict[str, str]:
        """Every character's name, by its `name_key`."""
        return keyed_names(tuple(self.characters))

    @cached_property
    def living_names(self) -> frozenset[str]:
        return frozenset(c.name for c in self.living())

    @cached_property
    def living_player_names(self) -> frozenset[str]:
        return frozenset(c.name for c in self.living_players())

    # The presence log by who was there and by where guards were, made once per state for
    # the maps of every report (the log grows by a line per character per turn: read whole
    # for each reader, a report round's cost grew with the game's length).
    @cached_property
    def presence_of(self) -> dict[str, list[tuple[int, str, str]]]:
        """Each name's lines of the presence log, (turn, room, feature), in the log's order."""
        lines: dict[str, list[tuple[int, str, str]]] = {}
        for turn, room, who, feature in self.presence:
            lines.setdefault(who, []).append((turn, room, feature))
        return lines

    @cached_property
    def guards_present(self) -> dict[tuple[int, str], list[str]]:
        """The guards of the presence log, by (turn, room), in the log's order."""
        present: dict[tuple[int, str], list[str]] = {}
        for turn, room, who, _feature in self.presence:
            if who.startswith("guard "):
                present.setdefault((turn, room), []).append(who)
        return present

    @cached_property
    def histories(self) -> dict[str, Any]:
        """Each reader's map history (knowledge.py) asked so far, kept while the log is."""
        return {}

    def living(self) -> list[Character]:
        return [c for c in self.characters.values() if c.alive]

    def living_players(self) -> list[Character]:
        return [c for c in self.characters.values() if c.alive and not c.npc]

    def players(self) -> list[Character]:
        return [c for c in self.characters.values() if not c.npc]

    def living_guards(self) -> list[Guard]:
        return [g for g in self.guards.values() if g.alive]

    # Who is in each room, made once per state: every report and view asks it per room.
    @cached_property
    def by_room(
        self,
    ) -> dict[str, tuple[list[Character], list[Guard], list[Character], list[Guard]]]:
        """room -> (living characters, living guards, dead characters, dead guards), each in
        the order of `characters` and `guards`."""
        rooms: dict[str, tuple[list[Character], list[Guard], list[Character], list[Guard]]] = {}
        for character in self.characters.values():
            here = rooms.setdefault(character.room, ([], [], [], []))
            (here[0] if character.alive else here[2]).append(character)
        for guard in self.guards.values():
            here = rooms.setdefault(guard.room, ([], [], [], []))
            (here[1] if guard.alive else here[3]).append(guard)
        return rooms

    @cached_property
    def dead_by_room(self) -> dict[str, list[Character]]:
        """The rooms where dead characters lie (guards not counted), with them."""
        return {room: here[2] for room, here in self.by_room.items() if here[2]}

    # Values the rule modules derive from this state for one reader or one purpose (a
    # player's order judge, the actors), asked again and again by reports, views, forms
    # and the parser: a state never changes, so they never go stale, and they die with it.
    @cached_property
    def derived(self) -> dict[tuple[str, str], Any]:
        return {}

    @cached_property
    def sights(self) -> dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
        """`sight(room)` of each room asked so far."""
        return {}

    def sight(self, room: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
        """What a person in `room` sees there: (living characters' names, sorted; living
        guards' names by floor; the corpses: characters' names sorted, then guards' by
        floor). A guard's name is `guard <floor>`, so sorting names sorts guards by floor."""
        if room not in self.sights:
            living, guards, dead, dead_guards = self.by_room.get(room, _EMPTY_ROOM)
            self.sights[room] = (
                tuple(sorted(c.name for c in living)),
                tuple(sorted(g.name for g in guards)),
                tuple(sorted(c.name for c in dead)) + tuple(sorted(g.name for g in dead_guards)),
            )
        return self.sights[room]

    @cached_property
    def red_names(self) -> tuple[str, ...]:
        """Every Red character, alive or dead, sorted."""
        return tuple(sorted(c.name for c in self.characters.values() if c.team == RED))

    def in_room(self, room: str) -> list[Character]:
        return list(self.by_room.get(room, _EMPTY_ROOM)[0])

    def guards_in(self, room: str) -> list[Guard]:
        return list(self.by_room.get(room, _EMPTY_ROOM)[1])

    def corpses_in(self, room: str) -> tuple[list[Character], list[Guard]]:
        here = self.by_room.get(room, _EMPTY_ROOM)
        return list(here[2]), list(here[3])

    def find(self, name: str) -> Character | None:
        return self.characters.get(name)

    def room_with(self, kind: str) -> list[str]:
        return sorted(
            (room for room, slot in self.layout.items() if slot.kind == kind), key=room_order
        )

    def alert_in(self, room: str) -> bool:
        """Whether Alert limits terminal actions in `room` (rules: Alert, scope option)."""
        if not self.alert_floors:
            return False
        if self.options["alert_scope"] == "floor":
            return room[0] in self.alert_floors
        return True

    def lock_holds(self, room: str) -> bool:
        """A lock set during turn t holds from then until turn t+2's movement opens."""
        return room in self.locks

    # ------------------------------------------------------------------ updates
    def with_character(self, character: Character) -> "GameState":
        return evolve(self, characters={**self.characters, character.name: character})

    def with_characters(self, changed: Iterable[Character]) -> "GameState":
        updated = dict(self.characters)
        for character in changed:
            updated[character.name] = character
        return evolve(self, characters=updated)

    def with_guard(self, guard: Guard) -> "GameState":
        return evolve(self, guards={**self.guards, guard.floor: guard})

    def with_slot(self, room: str, slot: Slot) -> "GameState":
        return evolve(self, layout={**self.layout, room: slot})

    def counted(self, *keys: str) -> "GameState":
        actions = dict(self.actions)
        for key in keys:
            actions[key] = actions.get(key, 0) + 1
        return evolve(self, actions=actions)

    def killed(self, name: str, cause: str) -> "GameState":
        """The character (or guard, by `guard X`) dies now, leaving a corpse."""
        if name.startswith("guard "):
            guard = self.guards[name[-1]]
            return self.with_guard(evolve(guard, alive=False))
        character = self.characters[name]
        return self.with_character(evolve(character, alive=False, died_turn=self.turn, cause=cause))
