"""The information terminals (rules: Resolution §3, Terminals): Seer, Psychic, Locator,
History, Map data, Superlocator, Guard and Validity check. A hacked one gives a wrong
answer that never contradicts the rules or what its user has seen
(docs/rules/infiltration.md: "Hacked answers are plausible")."""

from __future__ import annotations

import random
from typing import Any, Callable

from engine.infiltration.facility import COMMON_TERMINALS
from engine.infiltration.orders.values import Use
from engine.infiltration.rooms import ROOMS, rooms_on_floor
from engine.infiltration.state import GREEN, NEUTRAL, RED, GameState
from engine.infiltration.steps.terminal_step import TerminalStep, hacked, user_room
from engine.infiltration.validity.facts import evaluate
from engine.infiltration.validity.world import StateWorld


def _seer(step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    team = step.start.characters[order.argument].team
    if hacked(step, name):
        team = {GREEN: RED, RED: GREEN, NEUTRAL: RED}[team]
    step.report(name, {"terminal": "SEER", "target": order.argument, "team": team})


def honest_red_count(state: GameState) -> int:
    return sum(1 for c in state.living_players() if c.team == RED)


def _psychic(
    step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use
) -> None:
    count = honest_red_count(step.start)
    if hacked(step, name):
        count = step.rng_for(name).choice(
            [n for n in range(step.start.initial_reds + 1) if n != count]
        )
    step.report(name, {"terminal": "PSYCHIC", "reds": count})


def _wrong_room(rng: random.Random, truth: str, pool: tuple[str, ...] = ROOMS) -> str:
    return rng.choice([room for room in pool if room != truth])


def _unseen_rooms(start: GameState, user: str) -> tuple[str, ...]:
    """Rooms where a hacked answer may put someone the user cannot see: never the user's
    own room (they see who is there) and never the hangar while its door is shut."""
    hangar = start.room_with("HANGAR")[0]
    return tuple(
        room
        for room in ROOMS
        if room != start.characters[user].room and (start.hangar_open or room != hangar)
    )


def _locator(
    step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use
) -> None:
    room = step.start.characters[order.argument].room
    # A target standing with the user is shown there even when hacked: any other answer
    # would give the hack away.
    if hacked(step, name) and room != user_room(step, name):
        room = _wrong_room(step.rng_for(name), room, _unseen_rooms(step.start, name))
    step.report(name, {"terminal": "LOCATOR", "target": order.argument, "room": room})


def honest_history(state: GameState, room: str) -> list[list[Any]]:
    entries = {
        (turn, who) for turn, where, who, _feature in state.presence if where == room and turn >= 1
    }
    return [list(entry) for entry in sorted(entries)]


def plausible_history_entries(start: GameState, user: str, room: str) -> list[tuple[int, str]]:
    """Every (turn, character) a hacked History of `room` may name (rules: a hacked answer
    must be plausible): the user only on turns they really were there, a guard only in a
    room of its home floor, and anyone only on a turn they were alive at arrival."""
    user_turns = {
        turn for turn, where, who, _feature in start.presence if who == user and where == room
    }
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
            if (
                character.alive
                or died is None  # never: a dead character has a died_turn
                or turn < died
                or (turn == died and turn in present_turns.get(character.name, ()))
            ):
                candidates.append((turn, character.name))
        guard = start.guards[room[0]]
        if guard.alive or turn <= max(present_turns.get(guard.name, {0})):
            candidates.append((turn, guard.name))
    return sorted(candidates)


def _history(
    step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use
) -> None:
    entries = honest_history(step.start, order.argument)
    if hacked(step, name):
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


def _mapdata(
    step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use
) -> None:
    features = {room: step.start.layout[room].kind for room in order.argument}
    if hacked(step, name):
        # Wrong features only from the twelve common terminal types, so no answer breaks the
        # public feature counts; a room the user stood in shows what the user saw there.
        rng = step.rng_for(name)
        seen = seen_features(step.start, name)
        features = {
            room: seen.get(room) or rng.choice([f for f in COMMON_TERMINALS if f != kind])
            for room, kind in features.items()
        }
    step.report(
        name, {"terminal": "MAPDATA", "rooms": [[room, features[room]] for room in order.argument]}
    )


def _superlocator(
    step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use
) -> None:
    rooms = {c.name: c.room for c in step.start.living()}
    if hacked(step, name):
        # The user and those with them stay where the user sees them; everyone else goes to
        # a wrong room the user cannot see into and that the rules allow.
        rng = step.rng_for(name)
        here = user_room(step, name)
        allowed = _unseen_rooms(step.start, name)
        rooms = {
            who: room if room == here else _wrong_room(rng, room, allowed)
            for who, room in rooms.items()
        }
    step.report(name, {"terminal": "SUPERLOCATOR", "rooms": rooms})


def _guard(step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use) -> None:
    # Reads the plans after the Commander's terminal has resolved (`state`, not `step.start`).
    plans = {g.floor: g.plan for g in sorted(state.living_guards(), key=lambda g: g.floor)}
    if hacked(step, name):
        # A wrong room on the guard's home floor, never the room it stands in: an honest
        # answer never shows a guard staying.
        rng = step.rng_for(name)
        plans = {
            floor: _wrong_room(
                rng,
                plan,
                tuple(room for room in rooms_on_floor(floor) if room != state.guards[floor].room),
            )
            for floor, plan in plans.items()
        }
    step.report(name, {"terminal": "GUARD", "plans": plans})


def _validity(
    step: TerminalStep, state: GameState, world: StateWorld, name: str, order: Use
) -> None:
    truth = bool(evaluate(order.argument, world))
    if hacked(step, name):
        truth = not truth
    step.report(name, {"terminal": "VALIDITY", "statement": str(order.argument), "true": truth})


INFORMATION_USES: dict[str, Callable[[TerminalStep, GameState, StateWorld, str, Use], None]] = {
    "SEER": _seer,
    "PSYCHIC": _psychic,
    "LOCATOR": _locator,
    "HISTORY": _history,
    "MAPDATA": _mapdata,
    "SUPERLOCATOR": _superlocator,
    "GUARD": _guard,
    "VALIDITY": _validity,
}
