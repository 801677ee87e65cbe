"""Scripted players for the demo and `pbp simulate` (host-side; never part of the rules).

Greens pursue the mission: they explore (partly at random, as people do), and share what they saw through a team memory
(the rooms Green players saw at their arrivals, and the code if a Green learned it), then
send two Stinger carriers to the hangar and two runners to the generators. Reds hunt lone
characters from their occupancy report, attack when they are not outnumbered, and hack or
destroy terminals. NPCs act at random within the rules. Every draw comes from
(seed, phase id, player), and every line is checked with the real parser before it is sent,
so a scripted block always parses.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.core import OrderError, phase_rng
from engine.infiltration.orders import SenderView, parse_line, sender_view
from engine.infiltration.rooms import FLOORS, ROOMS, TERMINALS, rooms_on_floor
from engine.infiltration.state import (
    DESTROYED, GREEN, HACKED, RED, TECHNICIANS, UNSEEN_BY_GUARDS, GameState, Step,
)

MESSAGES = ("Trust the Seer results, not the loud ones.", "I am Green. Vote with me.",
            "Someone is hacking terminals on this floor.", "The guards are restless tonight.")


@dataclass(frozen=True)
class TeamMemory:
    """What Green players learned from their own arrivals, pooled."""

    features: dict[str, str]  # room -> feature as last seen by a Green
    code: str | None

    def rooms_of(self, kind: str) -> list[str]:
        return sorted(room for room, feature in self.features.items() if feature == kind)


def green_memory(state: GameState) -> TeamMemory:
    greens = {c.name for c in state.players() if c.team == GREEN}
    features = {}
    for _turn, room, name, feature in state.presence:
        if name in greens:
            features[room] = feature
    unseen = [room for room in ROOMS if room not in features]
    if len(unseen) == 1 and "HANGAR" not in features.values():
        # The one room nobody could enter is the hangar behind its shut door.
        features[unseen[0]] = "HANGAR"
    knows = any(c.knows_code for c in state.players() if c.team == GREEN)
    return TeamMemory(features, state.code if knows else None)


def scripted_orders(state: GameState, player: str, seed: Any) -> str:
    rng = phase_rng(seed, state.phase_id, f"bot:{player}")
    me = state.characters[player]
    view = sender_view(state, player)
    if state.step == Step.CLASS:
        if me.team == RED:
            lines = ["CLASS WARRIOR"]
        else:
            lines = [f"CLASS {rng.choices(('WARRIOR', 'HACKER', 'SNEAKER'), (5, 3, 2))[0]}"]
    elif me.npc:
        lines = _random_orders(state, view, rng)
    elif me.team == RED:
        lines = _red_orders(state, view, rng)
    else:
        lines = _green_orders(state, view, rng, seed)
    return "\n".join(_parseable(lines, view))


def _parseable(lines: list[str], view: SenderView) -> list[str]:
    good = []
    for line in lines:
        try:
            parse_line(line, view)
        except OrderError:
            continue
        good.append(line)
    return good


# ---------------------------------------------------------------------- Greens
def _green_orders(state: GameState, view: SenderView, rng: random.Random, seed: Any) -> list[str]:
    memory = green_memory(state)
    if state.step == Step.MOVEMENT:
        return _green_move(state, view, memory, rng)
    lines = _guard_attack(view)
    lines += _terminal_line(state, view, rng, memory, hostile=False)
    lines.append(_green_vote(state, view, rng, seed))
    return [line for line in lines if line]


def _green_move(state: GameState, view: SenderView, memory: TeamMemory, rng: random.Random) -> list[str]:
    me = state.characters[view.name]
    labs, hangars = memory.rooms_of("WEAPONS LAB"), memory.rooms_of("HANGAR")
    generators = memory.rooms_of("GENERATOR")
    greens = sorted((c for c in state.living_players() if c.team == GREEN), key=lambda c: (not c.stinger, c.name))
    code = [f"CODE {memory.code}"] if memory.code else []
    carriers, runners = [c.name for c in greens[:2]], [c.name for c in greens[2:4]]
    if labs and view.name in carriers and not me.stinger:
        return [f"MOVE {labs[0]}"]
    ready = hangars and len(generators) == 2 and memory.code and len(greens) >= 4
    if ready:
        if view.name in carriers:
            return [f"MOVE {hangars[0]}"] + code
        if view.name in runners:
            return [f"MOVE {generators[runners.index(view.name)]}"]
    unseen = [room for room in ROOMS if room not in memory.features]
    if unseen and rng.random() < 0.3:
        return [f"MOVE {rng.choice(unseen)}"] + code
    return [f"MOVE {rng.choice(ROOMS)}"] + code if rng.random() < 0.7 else ["STAY"]


def _green_vote(state: GameState, view: SenderView, rng: random.Random, seed: Any) -> str:
    """Greens talk in the thread and mostly agree: half vote NO LYNCH, the rest follow the
    day's suspect (one draw per phase, shared by the team)."""
    roll = rng.random()
    if roll < 0.5:
        return "VOTE NO LYNCH"
    if roll < 0.53 and state.turn >= 8:
        return "VOTE NO REDS LEFT"
    suspects = sorted(view.living_players)
    suspect = phase_rng(seed, state.phase_id, "green-suspect").choice(suspects)
    if suspect == view.name:
        return "VOTE NO LYNCH"
    return f"VOTE {suspect}"


def _guard_attack(view: SenderView) -> list[str]:
    """Attacking every guard in the room is always to a character's advantage."""
    if not view.guards_here:
        return []
    return ["ATTACK " + ", ".join(f"GUARD {floor}" for floor in view.guards_here)]


# ---------------------------------------------------------------------- Reds
def _red_orders(state: GameState, view: SenderView, rng: random.Random) -> list[str]:
    if state.step == Step.MOVEMENT:
        reds = {c.name for c in state.players() if c.team == RED}
        seen = {room: feature for _turn, room, name, feature in state.presence if name in reds}
        posts = sorted(room for room, feature in seen.items() if feature in ("GENERATOR", "HANGAR"))
        if posts and rng.random() < 0.5:
            return [f"MOVE {rng.choice(posts)}"]   # lie in wait where the Greens must come
        lonely = sorted(room for room, count in state.red_report.items() if count == 1 and room != view.room)
        if lonely and rng.random() < 0.7:
            return [f"MOVE {rng.choice(lonely)}"]
        return [f"MOVE {rng.choice(ROOMS)}"] if rng.random() < 0.8 else ["STAY"]
    reds = {c.name for c in state.players() if c.team == RED}
    allies = [n for n in view.company if n in reds] + [view.name]
    prey = sorted(n for n in view.company if n not in reds)
    targets = []
    at_post = view.feature in ("GENERATOR", "HANGAR")
    if prey and (len(allies) >= len(prey) or at_post):
        targets = prey
    targets += [f"GUARD {floor}" for floor in view.guards_here]
    lines = [f"ATTACK {', '.join(targets)}"] if targets else []
    lines += _terminal_line(state, view, rng, None, hostile=True)
    greens = sorted(n for n in view.living_players if n not in reds)
    roll = rng.random()
    lines.append(f"VOTE {rng.choice(greens)}" if greens and roll < 0.6 else
                 ("VOTE NO REDS LEFT" if roll < 0.65 else "VOTE NO LYNCH"))
    return lines


# ---------------------------------------------------------------------- NPCs and others
def _random_orders(state: GameState, view: SenderView, rng: random.Random) -> list[str]:
    if state.step == Step.MOVEMENT:
        return [f"MOVE {rng.choice(ROOMS)}"] if rng.random() < 0.7 else ["STAY"]
    lines = []
    targets = sorted(view.company) + [f"GUARD {floor}" for floor in view.guards_here]
    if targets and rng.random() < 0.3:
        lines.append(f"ATTACK {rng.choice(targets)}")
    lines += _terminal_line(state, view, rng, None, hostile=view.team == RED)
    return lines


# ---------------------------------------------------------------------- terminals
def _terminal_line(state: GameState, view: SenderView, rng: random.Random, memory: TeamMemory | None,
                   hostile: bool) -> list[str]:
    if view.feature not in TERMINALS:
        return []
    if view.alert_here and view.role not in UNSEEN_BY_GUARDS:
        return []
    if view.condition == DESTROYED:
        return ["REPAIR"] if view.role == "engineer" else []
    if view.condition == HACKED and view.role in TECHNICIANS:
        return ["RESTORE"]
    if hostile and view.team == RED:
        roll = rng.random()
        if roll < 0.35:
            return ["HACK"]
        if roll < 0.5:
            return ["DESTROY"]
    if rng.random() < 0.15:
        return []
    line = _use_line(state, view, rng, hostile)
    return [line] if line else []


def _use_line(state: GameState, view: SenderView, rng: random.Random, hostile: bool) -> str:
    terminal = view.feature
    others = sorted(n for n in view.living if n != view.name) or [view.name]
    if terminal in ("SEER", "LOCATOR"):
        return f"USE {terminal} {rng.choice(others)}"
    if terminal in ("PSYCHIC", "SUPERLOCATOR", "GUARD"):
        return f"USE {terminal}"
    if terminal == "GAS":
        crowded = sorted(r for r, n in state.red_report.items() if n >= 2 and r != view.room)
        if not hostile and rng.random() < 0.9:
            return ""   # Greens rarely gas blindly: it kills friends as easily as foes
        room = rng.choice(crowded) if hostile and crowded else rng.choice(ROOMS)
        return f"USE GAS {room}"
    if terminal in ("HISTORY", "LOCK", "SWITCH"):
        return f"USE {terminal} {rng.choice(ROOMS)}"
    if terminal == "MAPDATA":
        return "USE MAPDATA " + " ".join(rng.sample(ROOMS, 5))
    if terminal == "MESSAGE":
        return f"USE MESSAGE {rng.choice(MESSAGES)}"
    if terminal == "COMMANDER":
        floors = rng.sample(FLOORS, rng.randint(1, 3))
        return "USE COMMANDER " + " ".join(f"{f}={rng.choice(rooms_on_floor(f))}" for f in sorted(floors))
    return f"USE VALIDITY {_statement(state, view, rng, others)}"


def _statement(state: GameState, view: SenderView, rng: random.Random, others: list[str]) -> str:
    who, room, floor = rng.choice(others), rng.choice(ROOMS), rng.choice(FLOORS)
    turn = rng.randint(0, max(0, state.turn))
    feature = rng.choice(("WEAPONS LAB", "GENERALS ROOM", "HANGAR", "GENERATOR", "SEER"))
    forms = (
        f"{who} IS IN {room}",
        f"{who} WAS IN {room} ON TURN {turn}",
        f"{who} HAS STINGER",
        f"{who} VISITED {feature}",
        f"{room} HAS {feature}",
        f"GUARD {floor} IS DEAD",
        f"GUARD {floor} IS IN {room}",
        f"TERMINAL IN {room} IS HACKED",
        f"{who} USED SEER ON TURN {turn}",
        f"NOT {who} IS ALIVE OR HANGAR DOOR IS OPEN",
        f"({who} IS ALIVE AND {who} VISITED {room}) OR CODE IS {rng.randrange(10000):04d}",
    )
    return rng.choice(forms)
