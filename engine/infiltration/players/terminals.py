"""Terminal actions (docs/balance.md: Infiltration). A skilled Green asks what the mission
needs: the Seer about its top unchecked suspect, the Locator where a suspect is, Map data
about rooms nobody has reported, the Guard terminal before moving; Hackers restore what
they see hacked. A skilled Red hacks the terminals that would expose Reds (Seer, Psychic,
Validity) and destroys the rest now and then. Unskilled players use what they stand at
at random, as before."""

from __future__ import annotations

import random

from engine.infiltration.players.notes import GREEN, Notes
from engine.infiltration.rooms import FLOORS, ROOMS, rooms_on_floor

EXPOSING = ("SEER", "PSYCHIC", "VALIDITY")
MESSAGES = (
    "Trust the Seer results, not the loud ones.",
    "I am Green. Vote with me.",
    "Someone is hacking terminals on this floor.",
    "The guards are restless tonight.",
)


def terminal_line(notes: Notes, keywords: set[str], skilled: bool, rng: random.Random) -> list[str]:
    me = notes.me
    if "RESTORE" in keywords and me["condition"] == "hacked":
        return ["RESTORE"]
    if "HACK" in keywords:
        if skilled and me["feature"] in EXPOSING:
            return ["HACK"]
        roll = rng.random()
        if roll < 0.35:
            return ["HACK"]
        if roll < 0.5:
            return ["DESTROY"]
    if "USE" not in keywords or rng.random() < 0.15:
        return []
    line = use_line(notes, skilled, rng)
    return [line] if line else []


def use_line(notes: Notes, skilled: bool, rng: random.Random) -> str:
    me, terminal = notes.me, notes.me["feature"]
    living = sorted(p["name"] for p in notes.view["players"] if p["alive"])
    others = [name for name in living if name != me["name"]] or living
    hostile = me["team"] != GREEN
    if terminal == "SEER":
        if skilled and not hostile:
            unchecked = [
                name for name in others if name not in notes.seer and name in notes.living_players
            ] or others
            scores = notes.public_scores()
            return (
                f"USE SEER {max(unchecked, key=lambda name: (scores.get(name, 0.0), rng.random()))}"
            )
        return f"USE SEER {rng.choice(others)}"
    if terminal == "LOCATOR":
        if skilled and not hostile:
            scores = notes.private_scores()
            return (
                f"USE LOCATOR {max(others, key=lambda name: (scores.get(name, 0.0), rng.random()))}"
            )
        return f"USE LOCATOR {rng.choice(others)}"
    if terminal in ("PSYCHIC", "SUPERLOCATOR", "GUARD"):
        return f"USE {terminal}"
    if terminal == "MAPDATA":
        unknown = [room for room in ROOMS if room not in notes.features] if skilled else []
        rooms = rng.sample(unknown, 5) if len(unknown) >= 5 else rng.sample(ROOMS, 5)
        return "USE MAPDATA " + " ".join(rooms)
    if terminal == "GAS":
        crowded = sorted(
            room for room, count in notes.occupancy.items() if count >= 2 and room != me["room"]
        )
        if not hostile or (skilled and not crowded):
            return ""  # gas kills friends as easily as foes
        return f"USE GAS {rng.choice(crowded) if crowded else rng.choice(ROOMS)}"
    if terminal in ("HISTORY", "LOCK", "SWITCH"):
        return f"USE {terminal} {rng.choice(ROOMS)}"
    if terminal == "MESSAGE":
        return f"USE MESSAGE {rng.choice(MESSAGES)}"
    if terminal == "COMMANDER":
        floors = rng.sample(FLOORS, rng.randint(1, 3))
        return "USE COMMANDER " + " ".join(
            f"{f}={rng.choice(rooms_on_floor(f))}" for f in sorted(floors)
        )
    return f"USE VALIDITY {statement(notes, rng, others)}"


def statement(notes: Notes, rng: random.Random, others: list[str]) -> str:
    who, room, floor = rng.choice(others), rng.choice(ROOMS), rng.choice(FLOORS)
    turn = rng.randint(0, max(0, int(notes.view["turn"])))
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
    )
    return rng.choice(forms)
