"""Green players (docs/balance.md: Infiltration). Skilled (with probability `skill` per
decision) they:

- post in the thread what their terminals and eyes told them (a Seer answer, a Red seen
  attacking a Green, a mission room, a Stinger carried, the code), so Greens can pool it;
- agree on the mission from public facts only: the two least suspected players who
  reported a Stinger carry them to the hangar with the code, the next two least suspected
  hold the generators, once the hangar, both generators and the code are known; until then
  the two least suspected go for Stingers and the next one for the code;
- explore rooms nobody reported, away from where the Guard terminal sends the guards and
  from where a Locator or Superlocator answer shows a player they suspect of being Red;
- lynch the thread's wagon when the public scores show real evidence, else NO LYNCH;
- attack a player they are sure is Red when the room's Greens outnumber the suspects.

Unskilled, they move at random, vote NO LYNCH or a shared random suspect, and attack only
guards.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

from engine.infiltration.players.notes import KNOWN, Notes
from engine.infiltration.players.reading import RED
from engine.infiltration.players.terminals import terminal_line
from engine.infiltration.rooms import ROOMS
from engine.players import Seen

LYNCH_EVIDENCE = 1.5  # the public score from which the thread's wagon is lynched
ATTACK_EVIDENCE = 3.0  # the private score from which a Green attacks a player


def report(notes: Notes) -> dict[str, Any]:
    """What a Green tells the thread: everything useful it learned first-hand."""
    teams = {name: team for name, team in notes.seer.items()}
    teams.update({name: RED for name in notes.witnessed})
    return {
        "teams": teams,
        "stinger": bool(notes.me["stinger"]),
        "code": notes.me.get("code"),
        "features": dict(notes.features),
    }


def mission(notes: Notes) -> dict[str, str]:
    """Who goes where this turn, the same for every Green reading the same thread."""
    if "mission" not in notes.cache:
        # A plan reads the thread (shared by its readers), the mission rooms and the code.
        key = (
            tuple((feature, tuple(rooms)) for feature, rooms in notes.mission_rooms().items()),
            notes.code(),
        )
        plans = notes.reading.plans
        if key not in plans:
            plans[key] = plan_mission(notes)
        notes.cache["mission"] = plans[key]
    plan: dict[str, str] = notes.cache["mission"]
    return plan


def plan_mission(notes: Notes) -> dict[str, str]:
    rooms = notes.mission_rooms()
    living = notes.least_suspected()
    carriers = notes.carriers()[:2]
    hangar, generators, labs = (
        rooms.get("HANGAR", []),
        rooms.get("GENERATOR", []),
        rooms.get("WEAPONS LAB", []),
    )
    plan: dict[str, str] = {}
    if len(carriers) == 2 and hangar and len(generators) == 2 and notes.code() and len(living) >= 4:
        # Everyone else escorts, spread over the three rooms, to outnumber an ambush.
        others = [name for name in living if name not in carriers]
        plan.update({carrier: hangar[0] for carrier in carriers})
        posts = [generators[0], generators[1], hangar[0]]
        plan.update({name: posts[index % 3] for index, name in enumerate(others)})
        return plan
    if labs:
        wanted = [name for name in living if name not in carriers][: 2 - len(carriers)]
        plan.update({name: labs[0] for name in wanted})
    generals = rooms.get("GENERALS ROOM", [])
    if generals and not notes.code():
        seeker = next((name for name in living if name not in plan and name not in carriers), None)
        if seeker:
            plan[seeker] = generals[0]
    return plan


def move(notes: Notes, seen: Seen, rng: random.Random) -> list[str]:
    """Every Green who plays at all knows the goal and keeps to the thread's mission plan;
    skill decides how well the others explore."""
    code = [f"CODE {notes.code()}"] if notes.code() else []
    target = mission(notes).get(notes.name) if notes.skill > 0.0 else None
    if target:
        return ["STAY"] if target == notes.me["room"] else [f"MOVE {target}"] + code
    if rng.random() >= notes.skill:
        unseen = [room for room in ROOMS if room not in notes.features]
        if unseen and rng.random() < 0.3:
            return [f"MOVE {rng.choice(unseen)}"] + code
        return [f"MOVE {rng.choice(ROOMS)}"] + code if rng.random() < 0.7 else ["STAY"]
    return [f"MOVE {explore(notes, seen, rng)}"] + code


def explore(notes: Notes, seen: Seen, rng: random.Random) -> str:
    """A room nobody reported, away from the guards' next moves; the explorers share the
    unknown rooms out by the public coin, each taking the one at its place in the list of
    living players, so no two go to the same room."""
    known = notes.room_features()
    guarded = set(notes.guard_plans.values()) if notes.me["class"] != "sneaker" else set()
    scores = notes.private_scores()
    guarded |= {
        room for who, room in notes.sightings.items() if scores.get(who, 0.0) >= ATTACK_EVIDENCE
    }
    fresh = [room for room in ROOMS if room not in known and room not in guarded]
    if not fresh:
        return rng.choice([room for room in ROOMS if room not in guarded] or list(ROOMS))
    fresh = [fresh[place] for place in _shuffled_places(seen.coin, len(fresh))]
    order = sorted(set(notes.living_players) | {notes.name})
    return fresh[order.index(notes.name) % len(fresh)]


@lru_cache(maxsize=64)
def _shuffled_places(coin: int, count: int) -> tuple[int, ...]:
    """Where `random.Random(coin).shuffle` puts each of `count` items (the draws depend on
    the count only): made once per phase's coin for every explorer, not seeded for each."""
    places = list(range(count))
    random.Random(coin).shuffle(places)
    return tuple(places)


def decide(notes: Notes, seen: Seen, rng: random.Random) -> list[str]:
    keywords = {spec.keyword for spec in seen.grammar}
    skilled = rng.random() < notes.skill
    lines = attack(notes, seen, skilled)
    lines += terminal_line(notes, keywords, skilled, rng)
    if "VOTE" in keywords:
        lines.append(vote(notes, seen, skilled, rng))
    return lines


def attack(notes: Notes, seen: Seen, skilled: bool) -> list[str]:
    spec = next((spec for spec in seen.grammar if spec.keyword == "ATTACK"), None)
    if spec is None:
        return []
    targets = [choice for choice in spec.choices if choice.startswith("GUARD ")]
    if skilled:
        scores = notes.private_scores()
        company = [choice for choice in spec.choices if not choice.startswith("GUARD ")]
        suspects = [name for name in company if scores.get(name, 0.0) >= ATTACK_EVIDENCE]
        if suspects and len(company) + 1 - len(suspects) >= len(suspects):
            targets += suspects
    return ["ATTACK " + ", ".join(targets)] if targets else []


def vote(notes: Notes, seen: Seen, skilled: bool, rng: random.Random) -> str:
    living = sorted(notes.living_players)
    if not skilled:
        roll = rng.random()
        if roll < 0.5:
            return "VOTE NO LYNCH"
        suspect = living[int(seen.coin_draw() * len(living))]
        return "VOTE NO LYNCH" if suspect == notes.name else f"VOTE {suspect}"
    if notes.psychic == 0 and int(notes.view["turn"]) >= 2:
        return "VOTE NO REDS LEFT"
    wagon = thread_wagon(notes, seen)
    mine = notes.private_scores()
    if wagon is None or mine.get(wagon, 0.0) <= -KNOWN / 2:
        return "VOTE NO LYNCH"
    return f"VOTE {wagon}"


def thread_wagon(notes: Notes, seen: Seen) -> str | None:
    """The thread's suspect: the public coin's draw among players with real evidence."""
    scores = notes.public_scores()
    suspects = sorted(name for name, score in scores.items() if score >= LYNCH_EVIDENCE)
    if not suspects:
        return None
    weights = [math.exp(scores[name]) for name in suspects]
    mark = seen.coin_draw() * sum(weights)
    for name, weight in zip(suspects, weights):
        mark -= weight
        if mark < 0:
            return name
    return suspects[-1]
