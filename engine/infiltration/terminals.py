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
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from engine.core import Event, phase_rng
from engine.infiltration.orders import Tamper, Use
from engine.infiltration.facility import COMMON_TERMINALS
from engine.infiltration.rooms import ROOMS, room_order, rooms_on_floor
from engine.infiltration.evolve import evolve
from engine.infiltration.state import (
    GREEN, NEUTRAL, RED, UNSEEN_BY_GUARDS, GameState, Slot,
)
from engine.infiltration.validity import evaluate
from engine.infiltration.world import StateWorld

@dataclass(frozen=True)
class TerminalOutcome:
    """What step 3 produced for the rest of the resolution."""

    state: GameState
    reports: Mapping[str, list[Event]]
    messages: tuple[str, ...] = ()          # anonymous messages to publish (in drawn order)
    gassed: tuple[str, ...] = ()            # rooms gassed in step 4


@dataclass
class _Step:
    """Working values of one step (local to `run_terminals`, never stored)."""

    start: GameState
    rng: random.Random
    reports: dict[str, list[Event]] = field(default_factory=dict)
    messages: list[Any] = field(default_factory=list)
    gassed: set[str] = field(default_factory=set)
    locks: dict[str, Any] = field(default_factory=dict)

    def report(self, name: str, data: dict[str, Any]) -> None:
        self.reports.setdefault(name, []).append(Event("terminal", {"turn": self.start.turn, **data}))

    def rng_for(self, name: str) -> random.Random:
        """The draws of one user's hacked result: seeded by (game seed, phase id, user), so
        nobody's result depends on whether anyone else used a terminal (a hidden fact)."""
        return phase_rng(self.start.seed, self.start.phase_id, f"terminal:{name}")


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


def run_terminals(state: GameState, orders: Mapping[str, object], rng: random.Random) -> TerminalOutcome:
    """Step 3 for every terminal order (`orders[name]` is a Use or a Tamper). `rng` draws
    the order of the anonymous messages; hacked results draw from each user's own
    generator (`_Step.rng_for`)."""
    step = _Step(start=state, rng=rng)
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
    state = evolve(state, uses=state.uses + use_log,
                    locks={**state.locks, **step.locks})
    state = state.counted(*(f"use:{order.terminal}" for _name, order in uses),
                          *(order.action.lower() for _name, order in tampers))
    state = _tamper(step, state, tampers)
    state = _switches(step, state, [(n, o) for n, o in uses if o.terminal == "SWITCH"])
    # Sorted first, then shuffled: the order depends on the texts alone, never on who sent them.
    messages = sorted(step.messages)
    rng.shuffle(messages)
    return TerminalOutcome(state, step.reports, tuple(messages), tuple(sorted(step.gassed, key=room_order)))


def _hacked(step: _Step, name: str) -> bool:
    """Whether the terminal this user used was hacked when the step began."""
    return step.start.layout[step.start.characters[name].room].hacked


def _room_of(step: _Step, name: str) -> str:
    return step.start.characters[name].room


# ---------------------------------------------------------------------- information terminals
def _seer(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    team = step.start.characters[order.argument].team
    if _hacked(step, name):
        team = {GREEN: RED, RED: GREEN, NEUTRAL: RED}[team]
    step.report(name, {"terminal": "SEER", "target": order.argument, "team": team})


def honest_red_count(state: GameState) -> int:
    return sum(1 for c in state.living_players() if c.team == RED)


def _psychic(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    count = honest_red_count(step.start)
    if _hacked(step, name):
        count = step.rng_for(name).choice([n for n in range(step.start.initial_reds + 1) if n != count])
    step.report(name, {"terminal": "PSYCHIC", "reds": count})


def _wrong_room(rng: random.Random, truth: str, pool: tuple[str, ...] = ROOMS) -> str:
    return rng.choice([room for room in pool if room != truth])


def _unseen_rooms(start: GameState, user: str) -> tuple[str, ...]:
    """Rooms where a hacked answer may put someone the user cannot see: never the user's
    own room (they see who is there) and never the hangar while its door is shut."""
    hangar = start.room_with("HANGAR")[0]
    return tuple(room for room in ROOMS
                 if room != start.characters[user].room and (start.hangar_open or room != hangar))


def _locator(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    room = step.start.characters[order.argument].room
    # A target standing with the user is shown there even when hacked: any other answer
    # would give the hack away.
    if _hacked(step, name) and room != _room_of(step, name):
        room = _wrong_room(step.rng_for(name), room, _unseen_rooms(step.start, name))
    step.report(name, {"terminal": "LOCATOR", "target": order.argument, "room": room})


def honest_history(state: GameState, room: str) -> list[list[Any]]:
    entries = {(turn, who) for turn, where, who, _feature in state.presence if where == room and turn >= 1}
    return [list(entry) for entry in sorted(entries)]


def plausible_history_entries(start: GameState, user: str, room: str) -> list[tuple[int, str]]:
    """Every (turn, character) a hacked History of `room` may name (rules: a hacked answer
    must be plausible): the user only on turns they really were there, a guard only in a
    room of its home floor, and anyone only on a turn they were alive at arrival."""
    user_turns = {turn for turn, where, who, _feature in start.presence if who == user and where == room}
    present_turns: dict[str, set[int]] = {}
    for turn, _where, who, _feature in start.presence:
        present_turns.setdefault(who, set()).add(turn)
    candidates = []
    for turn in range(1, max(1, start.turn) + 1):
        for character in start.characters.values():
            if character.name == user:
                if turn in user_turns:
                    candidates.append((turn, user))
                continue
            died = character.died_turn
            if character.alive or turn < died or (turn == died and turn in present_turns.get(character.name, ())):  # type: ignore[operator]  # a dead character has a died_turn
                candidates.append((turn, character.name))
        guard = start.guards[room[0]]
        if guard.alive or turn <= max(present_turns.get(guard.name, {0})):
            candidates.append((turn, guard.name))
    return sorted(candidates)


def _history(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    entries = honest_history(step.start, order.argument)
    if _hacked(step, name):
        truth = {tuple(entry) for entry in entries}
        pool = plausible_history_entries(step.start, name, order.argument)
        wanted = min(max(1, len(truth)), len(pool))
        rng = step.rng_for(name)
        fake = set(rng.sample(pool, wanted))
        if fake == truth and len(pool) > wanted:
            # Swap one entry for one the truth lacks: the same size, never the truth.
            fake.remove(rng.choice(sorted(fake)))
            fake.add(rng.choice([entry for entry in pool if entry not in truth]))
        elif fake == truth and wanted > 1:
            fake.remove(rng.choice(sorted(fake)))
        entries = [list(entry) for entry in sorted(fake)]
    step.report(name, {"terminal": "HISTORY", "room": order.argument, "entries": entries})


def seen_features(start: GameState, user: str) -> dict[str, str]:
    """The feature the user saw in each room they have stood in (at their latest visit)."""
    seen = {}
    for _turn, room, who, feature in start.presence:
        if who == user:
            seen[room] = feature
    return seen


def _mapdata(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    features = {room: step.start.layout[room].kind for room in order.argument}
    if _hacked(step, name):
        # Wrong features only from the twelve common terminal types, so no answer breaks the
        # public feature counts; a room the user stood in shows what the user saw there.
        rng = step.rng_for(name)
        seen = seen_features(step.start, name)
        features = {room: seen.get(room) or rng.choice([f for f in COMMON_TERMINALS if f != kind])
                    for room, kind in features.items()}
    step.report(name, {"terminal": "MAPDATA", "rooms": [[room, features[room]] for room in order.argument]})


def _superlocator(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    rooms = {c.name: c.room for c in step.start.living()}
    if _hacked(step, name):
        # The user and those with them stay where the user sees them; everyone else goes to
        # a wrong room the user cannot see into and that the rules allow.
        rng = step.rng_for(name)
        here = _room_of(step, name)
        allowed = _unseen_rooms(step.start, name)
        rooms = {who: room if room == here else _wrong_room(rng, room, allowed) for who, room in rooms.items()}
    step.report(name, {"terminal": "SUPERLOCATOR", "rooms": rooms})


def _guard(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    # Reads the plans after the Commander's terminal has resolved (`state`, not `step.start`).
    plans = {g.floor: g.plan for g in sorted(state.living_guards(), key=lambda g: g.floor)}
    if _hacked(step, name):
        # A wrong room on the guard's home floor, never the room it stands in: an honest
        # answer never shows a guard staying.
        rng = step.rng_for(name)
        plans = {floor: _wrong_room(rng, plan, tuple(room for room in rooms_on_floor(floor)
                                                     if room != state.guards[floor].room))
                 for floor, plan in plans.items()}
    step.report(name, {"terminal": "GUARD", "plans": plans})


def _validity(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    truth = bool(evaluate(order.argument, world))
    if _hacked(step, name):
        truth = not truth
    step.report(name, {"terminal": "VALIDITY", "statement": str(order.argument), "true": truth})


# ---------------------------------------------------------------------- effect terminals
def _message(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    if not _hacked(step, name):
        step.messages.append(order.argument)
    step.report(name, {"terminal": "MESSAGE", "text": order.argument})


def _gas(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    if not _hacked(step, name):
        step.gassed.add(order.argument)
    step.report(name, {"terminal": "GAS", "room": order.argument})


def _lock(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    if not _hacked(step, name):
        step.locks[order.argument] = step.start.turn
    step.report(name, {"terminal": "LOCK", "room": order.argument})


def _switch_report(step: _Step, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    step.report(name, {"terminal": "SWITCH", "room": order.argument})


def _commander(step: _Step, state: GameState, uses: list[tuple[str, Use]]) -> GameState:
    """Destinations from every honest use; a guard given different destinations by
    several users keeps its own plan. Each user is told the order was carried out."""
    wanted: dict[str, set[str]] = {}
    for name, order in uses:
        step.report(name, {"terminal": "COMMANDER", "destinations": [list(pair) for pair in order.argument]})
        if _hacked(step, name):
            continue
        for floor, room in order.argument:
            wanted.setdefault(floor, set()).add(room)
    for floor, rooms in sorted(wanted.items()):
        guard = state.guards[floor]
        if guard.alive and len(rooms) == 1:
            state = state.with_guard(evolve(guard, plan=next(iter(rooms))))
    return state


_USES: dict[str, Callable[[_Step, GameState, StateWorld, str, Use], None]] = {
    "SEER": _seer, "PSYCHIC": _psychic, "LOCATOR": _locator, "HISTORY": _history,
    "MAPDATA": _mapdata, "SUPERLOCATOR": _superlocator, "GUARD": _guard, "VALIDITY": _validity,
    "MESSAGE": _message, "GAS": _gas, "LOCK": _lock, "SWITCH": _switch_report,
}


# ---------------------------------------------------------------------- changes
def _tamper(step: _Step, state: GameState, tampers: list[tuple[str, Tamper]]) -> GameState:
    """Hacks and destroys, then restores and repairs (so a restore undoes a same-step hack).
    A destroyed terminal loses its hack; a repaired one comes back sound."""
    by_action: dict[str, list[str]] = {}
    for name, order in tampers:
        by_action.setdefault(order.action, []).append(_room_of(step, name))
        step.reports.setdefault(name, []).append(
            Event("tamper", {"turn": step.start.turn, "action": order.action, "room": _room_of(step, name)}))
    changes: tuple[tuple[str, Callable[[Slot], Slot]], ...] = (("HACK", lambda s: s if s.destroyed else evolve(s, hacked=True)),
               ("DESTROY", lambda s: evolve(s, destroyed=True, hacked=False)),
               ("RESTORE", lambda s: s if s.destroyed else evolve(s, hacked=False)),
               ("REPAIR", lambda s: evolve(s, destroyed=False, hacked=False)))
    for action, change in changes:
        for room in by_action.get(action, ()):
            state = state.with_slot(room, change(state.layout[room]))
    return state


def _switches(step: _Step, state: GameState, uses: list[tuple[str, Use]]) -> GameState:
    """One at a time, by the users' rooms (A-1 first) then names, each on the layout the one
    before left. A switch applies only if its user's room still holds the switch terminal
    that was used and the target is another room holding a terminal."""
    ordered = sorted(uses, key=lambda item: (room_order(_room_of(step, item[0])), item[0]))
    for name, order in ordered:
        if _hacked(step, name):
            continue
        room, target = _room_of(step, name), order.argument
        used: Slot = step.start.layout[room]
        here, there = state.layout[room], state.layout[target]
        if here.tid != used.tid or target == room or not there.is_terminal:
            continue
        state = evolve(state, layout={**state.layout, room: there, target: here})
    return state
