"""What a Validity check statement is and how it is judged (rules: Resolution §3,
"Validity check grammar"): the game as a check may ask of it (`ValidityWorld`), the facts,
NOT, AND and OR, whose `str()` is the canonical text, and `evaluate`."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Protocol, Union


class ValidityWorld(Protocol):
    """What a validity check may ask of the game, as it is when step 3 begins."""

    def is_alive(self, name: str) -> bool: ...
    def room_of(self, name: str) -> str | None: ...  # living characters only
    def was_in(self, name: str, room: str, turn: int) -> bool: ...
    def has_stinger(self, name: str) -> bool: ...
    def visited_room(self, name: str, room: str) -> bool: ...
    def visited_feature(self, name: str, feature: str) -> bool: ...
    def attacked(self, name: str, target: str, turn: int) -> bool: ...  # target: name or "guard X"
    def used(self, name: str, terminal: str, turn: int) -> bool: ...
    def room_has(self, room: str, feature: str) -> bool: ...
    def terminal_is(self, room: str, condition: str) -> bool: ...  # "HACKED" or "DESTROYED"
    def guard_in(self, floor: str, room: str) -> bool: ...
    def guard_dead(self, floor: str) -> bool: ...
    def code(self) -> str: ...
    def hangar_open(self) -> bool: ...


# ----------------------------------------------------------------------------- facts
class Fact(ABC):
    """One atomic claim of the grammar's `fact` rule."""

    @abstractmethod
    def holds(self, world: ValidityWorld) -> bool:
        """Whether the claim is true in `world`."""


@dataclass(frozen=True)
class IsIn(Fact):
    player: str
    room: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.room_of(self.player) == self.room

    def __str__(self) -> str:
        return f"{self.player} IS IN {self.room}"


@dataclass(frozen=True)
class WasIn(Fact):
    player: str
    room: str
    turn: int

    def holds(self, world: ValidityWorld) -> bool:
        return world.was_in(self.player, self.room, self.turn)

    def __str__(self) -> str:
        return f"{self.player} WAS IN {self.room} ON TURN {self.turn}"


@dataclass(frozen=True)
class IsAlive(Fact):
    player: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.is_alive(self.player)

    def __str__(self) -> str:
        return f"{self.player} IS ALIVE"


@dataclass(frozen=True)
class IsDead(Fact):
    player: str

    def holds(self, world: ValidityWorld) -> bool:
        return not world.is_alive(self.player)

    def __str__(self) -> str:
        return f"{self.player} IS DEAD"


@dataclass(frozen=True)
class HasStinger(Fact):
    player: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.has_stinger(self.player)

    def __str__(self) -> str:
        return f"{self.player} HAS STINGER"


@dataclass(frozen=True)
class VisitedRoom(Fact):
    player: str
    room: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.visited_room(self.player, self.room)

    def __str__(self) -> str:
        return f"{self.player} VISITED {self.room}"


@dataclass(frozen=True)
class VisitedFeature(Fact):
    player: str
    feature: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.visited_feature(self.player, self.feature)

    def __str__(self) -> str:
        return f"{self.player} VISITED {self.feature}"


@dataclass(frozen=True)
class Attacked(Fact):
    """`target` is a canonical character name or a guard as `guard X`."""

    player: str
    target: str
    turn: int

    def holds(self, world: ValidityWorld) -> bool:
        return world.attacked(self.player, self.target, self.turn)

    def __str__(self) -> str:
        floor = guard_floor(self.target)
        target = f"GUARD {floor}" if floor else self.target
        return f"{self.player} ATTACKED {target} ON TURN {self.turn}"


@dataclass(frozen=True)
class Used(Fact):
    player: str
    terminal: str
    turn: int

    def holds(self, world: ValidityWorld) -> bool:
        return world.used(self.player, self.terminal, self.turn)

    def __str__(self) -> str:
        return f"{self.player} USED {self.terminal} ON TURN {self.turn}"


@dataclass(frozen=True)
class RoomHas(Fact):
    room: str
    feature: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.room_has(self.room, self.feature)

    def __str__(self) -> str:
        return f"{self.room} HAS {self.feature}"


@dataclass(frozen=True)
class TerminalIs(Fact):
    room: str
    condition: str  # "HACKED" or "DESTROYED"

    def holds(self, world: ValidityWorld) -> bool:
        return world.terminal_is(self.room, self.condition)

    def __str__(self) -> str:
        return f"TERMINAL IN {self.room} IS {self.condition}"


@dataclass(frozen=True)
class GuardIn(Fact):
    floor: str
    room: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.guard_in(self.floor, self.room)

    def __str__(self) -> str:
        return f"GUARD {self.floor} IS IN {self.room}"


@dataclass(frozen=True)
class GuardDead(Fact):
    floor: str

    def holds(self, world: ValidityWorld) -> bool:
        return world.guard_dead(self.floor)

    def __str__(self) -> str:
        return f"GUARD {self.floor} IS DEAD"


@dataclass(frozen=True)
class CodeIs(Fact):
    digits: str  # kept as text: a code may start with 0

    def holds(self, world: ValidityWorld) -> bool:
        return world.code() == self.digits

    def __str__(self) -> str:
        return f"CODE IS {self.digits}"


@dataclass(frozen=True)
class HangarOpen(Fact):
    def holds(self, world: ValidityWorld) -> bool:
        return world.hangar_open()

    def __str__(self) -> str:
        return "HANGAR DOOR IS OPEN"


def guard_floor(target: str) -> str | None:
    """The floor of a guard target written `guard X`, or None for a character's name."""
    match = re.fullmatch(r"guard ([A-H])", target)
    return match.group(1) if match else None


# ------------------------------------------------------------------------ connectives
@dataclass(frozen=True)
class Not:
    """The statement does not hold."""

    operand: "Statement"

    def __str__(self) -> str:
        inner = str(self.operand)
        return f"NOT ({inner})" if isinstance(self.operand, (And, Or)) else f"NOT {inner}"


@dataclass(frozen=True)
class And:
    """Two or more statements that must all hold; nesting is kept as written."""

    operands: tuple["Statement", ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "operands", tuple(self.operands))
        if len(self.operands) < 2:
            raise ValueError("And needs at least two operands")

    def __str__(self) -> str:
        # An Or inside must be bracketed; so must an And, or it would flatten on re-parsing.
        return " AND ".join(
            f"({op})" if isinstance(op, (And, Or)) else str(op) for op in self.operands
        )


@dataclass(frozen=True)
class Or:
    """Two or more statements of which at least one must hold; nesting is kept as written."""

    operands: tuple["Statement", ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "operands", tuple(self.operands))
        if len(self.operands) < 2:
            raise ValueError("Or needs at least two operands")

    def __str__(self) -> str:
        return " OR ".join(f"({op})" if isinstance(op, Or) else str(op) for op in self.operands)


Statement = Union[Fact, Not, And, Or]


def evaluate(statement: Statement, world: ValidityWorld) -> bool:
    """The honest truth of `statement` in `world` (a hacked terminal's caller negates it)."""
    if isinstance(statement, Not):
        return not evaluate(statement.operand, world)
    if isinstance(statement, And):
        return all(evaluate(op, world) for op in statement.operands)
    if isinstance(statement, Or):
        return any(evaluate(op, world) for op in statement.operands)
    return statement.holds(world)
