"""One terminals step in the making (rules: Resolution §3): what every use sees (the
terminals as they were when the step began), the reports it writes, and each user's own
draws for a hacked result."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event, phase_rng
from engine.infiltration.state import GameState


@dataclass
class TerminalStep:
    """Working values of one step (local to `run_terminals`, never stored): the state as
    the step began, each user's reports, the messages, gassed rooms and locks."""

    start: GameState
    rng: random.Random
    reports: dict[str, list[Event]] = field(default_factory=dict)
    messages: list[Any] = field(default_factory=list)
    gassed: set[str] = field(default_factory=set)
    locks: dict[str, Any] = field(default_factory=dict)

    def report(self, name: str, data: dict[str, Any]) -> None:
        self.reports.setdefault(name, []).append(
            Event("terminal", {"turn": self.start.turn, **data})
        )

    def rng_for(self, name: str) -> random.Random:
        """The draws of one user's hacked result: seeded by (game seed, phase id, user), so
        nobody's result depends on whether anyone else used a terminal (a hidden fact)."""
        return phase_rng(self.start.seed, self.start.phase_id, f"terminal:{name}")


def hacked(step: TerminalStep, name: str) -> bool:
    """Whether the terminal this user used was hacked when the step began."""
    return step.start.layout[step.start.characters[name].room].hacked


def user_room(step: TerminalStep, name: str) -> str:
    """The room the user was in when the step began (where the terminal they used stands)."""
    return step.start.characters[name].room
