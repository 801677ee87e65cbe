"""Red players (docs/balance.md: Infiltration). Skilled (with probability `skill` per
decision) they:

- hide: vote with the thread's wagon when it is a Green, and against it (another Green the
  thread suspects, or NO LYNCH) when it is a Red;
- lie: the Reds agree (by their channel's coin) on one of them who posts a false report
  now and then: a Green named Red, a fellow Red named Green, a Stinger he does not carry;
- pick fights they can win: hunt rooms with one occupant from their occupancy report, lie
  in wait at the rooms the Greens' own reports name as the hangar and the generators, and
  attack only where the Reds in the room are at least as many as the others;
- hack the terminals that expose Reds.

Unskilled, they hunt and ambush by chance, attack when not outnumbered and vote a random
Green.
"""

from __future__ import annotations

import random
from typing import Any

from engine.infiltration.players.greens import thread_wagon
from engine.infiltration.players.notes import GREEN, Notes
from engine.infiltration.players.reading import RED
from engine.infiltration.players.terminals import terminal_line
from engine.infiltration.rooms import ROOMS
from engine.players import Seen

RED_CHANNEL = "reds"
LIE_RATE = 0.5  # at skill 1: a turn's chance that the Reds post a lie


def lie(notes: Notes, seen: Seen) -> dict[str, Any] | None:
    """A false report from the Red the channel's coin names, or None."""
    coin = seen.team_coins.get(RED_CHANNEL, 0)
    chance = random.Random(f"{coin}/lie")
    reds = sorted(name for name in notes.reds if name in notes.living_players)
    if not reds or chance.random() >= LIE_RATE * notes.skill or chance.choice(reds) != notes.name:
        return None
    greens = sorted(name for name in notes.living_players if name not in notes.reds)
    teams = dict(notes.posted.get("teams", {}))
    if greens and chance.random() < 0.7:
        teams[chance.choice(greens)] = RED
    else:
        teams[chance.choice(reds)] = GREEN
    return {"teams": teams, "stinger": chance.random() < 0.5}


def move(notes: Notes, seen: Seen, rng: random.Random) -> list[str]:
    skilled = rng.random() < notes.skill
    rooms = notes.mission_rooms(trust_posts=skilled)
    posts = sorted(set(rooms.get("GENERATOR", []) + rooms.get("HANGAR", [])))
    if posts and rng.random() < 0.5:
        return [f"MOVE {rng.choice(posts)}"]  # lie in wait where the Greens must come
    lonely = sorted(
        room for room, count in notes.occupancy.items() if count == 1 and room != notes.me["room"]
    )
    if lonely and rng.random() < 0.7:
        return [f"MOVE {rng.choice(lonely)}"]
    return [f"MOVE {rng.choice(ROOMS)}"] if rng.random() < 0.8 else ["STAY"]


def decide(notes: Notes, seen: Seen, rng: random.Random) -> list[str]:
    keywords = {spec.keyword for spec in seen.grammar}
    skilled = rng.random() < notes.skill
    lines = attack(notes, seen)
    lines += terminal_line(notes, keywords, skilled, rng)
    if "VOTE" in keywords:
        lines.append(vote(notes, seen, skilled, rng))
    return lines


def attack(notes: Notes, seen: Seen) -> list[str]:
    spec = next((spec for spec in seen.grammar if spec.keyword == "ATTACK"), None)
    if spec is None:
        return []
    company = [choice for choice in spec.choices if not choice.startswith("GUARD ")]
    allies = [name for name in company if name in notes.reds] + [notes.name]
    prey = [name for name in company if name not in notes.reds]
    at_post = notes.me["feature"] in ("GENERATOR", "HANGAR")
    targets = prey if prey and (len(allies) >= len(prey) or at_post) else []
    targets += [choice for choice in spec.choices if choice.startswith("GUARD ")]
    return [f"ATTACK {', '.join(targets)}"] if targets else []


def vote(notes: Notes, seen: Seen, skilled: bool, rng: random.Random) -> str:
    greens = sorted(name for name in notes.living_players if name not in notes.reds)
    if skilled:
        wagon = thread_wagon(notes, seen)
        if wagon is not None and wagon not in notes.reds:
            return f"VOTE {wagon}"
        scores = notes.public_scores()
        if greens and wagon is not None:
            return f"VOTE {max(greens, key=lambda name: (scores.get(name, 0.0), name))}"
        return "VOTE NO LYNCH"
    roll = rng.random()
    if greens and roll < 0.6:
        return f"VOTE {rng.choice(greens)}"
    return "VOTE NO REDS LEFT" if roll < 0.65 else "VOTE NO LYNCH"
