"""The pieces a game state holds (engine.infiltration.state): characters, guards and what
each room holds, with a terminal's condition; immutable values like the state itself."""

from __future__ import annotations

from dataclasses import dataclass

HACKED, DESTROYED, SOUND = "hacked", "destroyed", ""


def guard_name(floor: str) -> str:
    """How a guard is named in orders and reports: `guard C`."""
    return f"guard {floor}"


@dataclass(frozen=True)
class Character:
    """A player or an NPC character (guards are `Guard`)."""

    name: str
    team: str
    role: str
    npc: bool
    room: str
    alive: bool = True
    stinger: bool = False
    knows_code: bool = False
    died_turn: int | None = None
    cause: str | None = None
    # The room's feature and condition as this character was shown them at their latest
    # arrival: what their orders are judged against (rules: Order grammar, receipts).
    seen_feature: str = ""
    seen_condition: str = SOUND


@dataclass(frozen=True)
class Guard:
    floor: str
    room: str
    plan: str
    alive: bool = True

    @property
    def name(self) -> str:
        return guard_name(self.floor)


@dataclass(frozen=True)
class Slot:
    """What one room holds. Terminals carry an identity (`tid`) and their state, which
    travel with them when a Switch swaps two rooms (rules: Terminals, Switch)."""

    kind: str
    tid: int = -1
    hacked: bool = False
    destroyed: bool = False

    @property
    def is_terminal(self) -> bool:
        return self.tid >= 0

    @property
    def condition(self) -> str:
        if self.destroyed:
            return DESTROYED
        return HACKED if self.hacked else SOUND
