"""Terminals, step 3 of a decision phase's resolution (rules: Resolution §3).

Orders of characters not alive when the step begins are void, and under Alert only
Sneakers and Renegades act. Every use sees the terminals as they were when the step began.
Then the changes apply in this order: hacks and destroys; restores and repairs; switches,
one at a time in the order of the users' rooms then names. Among uses, the Commander's
terminal resolves before the Guard terminal. A hacked terminal gives a wrong result (the
information terminals) or silently does nothing (the others); its user cannot tell, since a
wrong Locator, History, Map data, Superlocator or Guard answer never contradicts the rules
or what the user sees (docs/rules/infiltration.md: "Hacked answers are plausible").
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Mapping

from engine.core import Event
from engine.infiltration.evolve import evolve
from engine.infiltration.steps.information_terminals import INFORMATION_USES
from engine.infiltration.orders.values import Tamper, Use
from engine.infiltration.rooms import room_order
from engine.infiltration.state import UNSEEN_BY_GUARDS, GameState
from engine.infiltration.pieces import Slot
from engine.infiltration.steps.terminal_step import TerminalStep, hacked, user_room
from engine.infiltration.validity.world import StateWorld


@dataclass(frozen=True)
class TerminalOutcome:
    """What step 3 produced for the rest of the resolution."""

    state: GameState
    reports: Mapping[str, list[Event]]
    messages: tuple[str, ...] = ()  # anonymous messages to publish (in drawn order)
    gassed: tuple[str, ...] = ()  # rooms gassed in step 4


def acting(state: GameState, orders: Mapping[str, object]) -> list[tuple[str, object]]:
    """The terminal orders that take effect: living users, not silenced by Alert, at a
    terminal that is there and not destroyed (as at the start of the step)."""
    valid = []
    for name in sorted(orders):
        character = state.characters.get(name)
        if character is None or not character.alive:
            continue
        if state.alert_in(character.room) and character.role not in UNSEEN_BY_GUARDS:
            continue
        slot = state.layout[character.room]
        order = orders[name]
        if not slot.is_terminal:
            continue
        if isinstance(order, Use) and (slot.kind != order.terminal or slot.destroyed):
            continue
        if isinstance(order, Tamper) and slot.destroyed and order.action != "REPAIR":
            continue
        valid.append((name, order))
    return valid


def run_terminals(
    state: GameState, orders: Mapping[str, object], rng: random.Random
) -> TerminalOutcome:
    """Step 3 for every terminal order (`orders[name]` is a Use or a Tamper). `rng` draws
    the order of the anonymous messages; hacked results draw from each user's own
    generator (`TerminalStep.rng_for`)."""
    step = TerminalStep(start=state, rng=rng)
    chosen = acting(state, orders)
    uses = [(name, order) for name, order in chosen if isinstance(order, Use)]
    tampers = [(name, order) for name, order in chosen if isinstance(order, Tamper)]

    # The Commander's terminal first, so the Guard terminal shows the real next moves.
    state = _commander(step, state, [(n, o) for n, o in uses if o.terminal == "COMMANDER"])
    world = StateWorld(step.start)
    for name, order in uses:
        if order.terminal != "COMMANDER":
            _USES[order.terminal](step, state, world, name, order)

    use_log = tuple((step.start.turn, name, order.terminal) for name, order in uses)
    state = evolve(state, uses=state.uses + use_log, locks={**state.locks, **step.locks})
    state = state.counted(
        *(f"use:{order.terminal}" for _name, order in uses),
        *(order.action.lower() for _name, order in tampers),
    )
    state = _tamper(step, state, tampers)
    state = _switches(step, state, [(n, o) for n, o in uses if o.terminal == "SWITCH"])
    # Sorted first, then shuffled: the order depends on the texts alone, never on who sent them.
    messages = sorted(step.messages)
    rng.shuffle(messages)
    return TerminalOutcome(
        state, step.reports, tuple(messages), tuple(sorted(step.gassed, key=room_order))
    )


# ---------------------------------------------------------------------- effect terminals
def _message(
    step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use
) -> None:
    if not hacked(step, name):
        step.messages.append(order.argument)
    step.report(name, {"terminal": "MESSAGE", "text": order.argument})


def _gas(step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    if not hacked(step, name):
        step.gassed.add(order.argument)
    step.report(name, {"terminal": "GAS", "room": order.argument})


def _lock(step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    if not hacked(step, name):
        step.locks[order.argument] = step.start.turn
    step.report(name, {"terminal": "LOCK", "room": order.argument})


def _switch_report(
    step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use
) -> None:
    step.report(name, {"terminal": "SWITCH", "room": order.argument})


def _commander(step: TerminalStep, state: GameState, uses: list[tuple[str, Use]]) -> GameState:
    """Destinations from every honest use; a guard given different destinations by
    several users keeps its own plan. Each user is told the order was carried out."""
    wanted: dict[str, set[str]] = {}
    for name, order in uses:
        step.report(
            name, {"terminal": "COMMANDER", "destinations": [list(pair) for pair in order.argument]}
        )
        if hacked(step, name):
            continue
        for floor, room in order.argument:
            wanted.setdefault(floor, set()).add(room)
    for floor, rooms in sorted(wanted.items()):
        guard = state.guards[floor]
        if guard.alive and len(rooms) == 1:
            state = state.with_guard(evolve(guard, plan=next(iter(rooms))))
    return state


_USES: dict[str, Callable[[TerminalStep, GameState, StateWorld, str, Use], None]] = {
    **INFORMATION_USES,
    "MESSAGE": _message,
    "GAS": _gas,
    "LOCK": _lock,
    "SWITCH": _switch_report,
}


# ---------------------------------------------------------------------- changes
def _tamper(step: TerminalStep, state: GameState, tampers: list[tuple[str, Tamper]]) -> GameState:
    """Hacks and destroys, then restores and repairs (so a restore undoes a same-step hack).
    A destroyed terminal loses its hack; a repaired one comes back sound."""
    by_action: dict[str, list[str]] = {}
    for name, order in tampers:
        by_action.setdefault(order.action, []).append(user_room(step, name))
        step.reports.setdefault(name, []).append(
            Event(
                "tamper",
                {"turn": step.start.turn, "action": order.action, "room": user_room(step, name)},
            )
        )
    changes: tuple[tuple[str, Callable[[Slot], Slot]], ...] = (
        ("HACK", lambda s: s if s.destroyed else evolve(s, hacked=True)),
        ("DESTROY", lambda s: evolve(s, destroyed=True, hacked=False)),
        ("RESTORE", lambda s: s if s.destroyed else evolve(s, hacked=False)),
        ("REPAIR", lambda s: evolve(s, destroyed=False, hacked=False)),
    )
    for action, change in changes:
        for room in by_action.get(action, ()):
            state = state.with_slot(room, change(state.layout[room]))
    return state


def _switches(step: TerminalStep, state: GameState, uses: list[tuple[str, Use]]) -> GameState:
    """One at a time, by the users' rooms (A-1 first) then names, each on the layout the one
    before left. A switch applies only if its user's room still holds the switch terminal
    that was used and the target is another room holding a terminal."""
    ordered = sorted(uses, key=lambda item: (room_order(user_room(step, item[0])), item[0]))
    for name, order in ordered:
        if hacked(step, name):
            continue
        room, target = user_room(step, name), order.argument
        used: Slot = step.start.layout[room]
        here, there = state.layout[room], state.layout[target]
        if here.tid != used.tid or target == room or not there.is_terminal:
            continue
        state = evolve(state, layout={**state.layout, room: there, target: here})
    return state
