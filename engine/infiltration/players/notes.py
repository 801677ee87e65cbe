"""What a scripted Infiltration player knows (docs/balance.md: Infiltration): its own view
(room, what it saw, its map), its mail (arrivals, terminal answers, combat reports, the
Reds' occupancy report) and the thread, where players post reports: teams a Seer terminal
or a fight showed, features of rooms, a Stinger carried, the code.

Suspicion is a score per living player (log-odds of being Red). The public part, which
every reader computes alike, is the thread's reading (reading.py); the private part adds
what the player saw: its own Seer answers (a hacked terminal lies, so not certain), attacks
on Greens it witnessed, and for a Red the Reds themselves.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.infiltration.players.reading import RED, reading_of
from engine.players import Post, Seen, Skill

GREEN = "green"
KNOWN = 50.0
OWN_SEER_WEIGHT = 4.0  # my own Seer answer (the terminal may have been hacked)
MISSION_ROOMS = ("WEAPONS LAB", "GENERALS ROOM", "HANGAR", "GENERATOR")


class Notes:
    def __init__(self, name: str, skill: Skill):
        self.name, self.skills = name, skill
        self.skill = skill.village  # my side's skill, once I know my side
        self.phase = ""
        self.view: Mapping[str, Any] = {}
        self.features: dict[str, str] = {}  # room -> feature, as I saw it
        self.seer: dict[str, str] = {}  # my Seer answers: player -> team
        self.witnessed: set[str] = set()  # players I saw attack a Green (or me)
        self.psychic: int | None = None
        self.guard_plans: dict[str, str] = {}  # this turn's Guard terminal answer
        self.sightings: dict[
            str, str
        ] = {}  # this turn's Locator / Superlocator answers: who, where
        self.occupancy: dict[str, int] = {}  # a Red's report
        self.posts: tuple[Post, ...] = ()
        self.living_players: tuple[str, ...] = ()  # as my view shows them
        self.cache: dict[str, Any] = {}  # what the record gives, until it grows
        self.reading = reading_of((), ())  # what the thread tells everyone
        self.posted: dict[str, Any] = {}
        self.said_in = ""  # the phase whose post is made
        self.reds: set[str] = set()

    def look(self, seen: Seen) -> None:
        if seen.phase != self.phase:
            self.phase, self.view = seen.phase, seen.view
            self.skill = self.skills.side(seen.view["me"]["team"] == RED)
            self.living_players = living_players(seen.view["players"])
            if seen.phase.endswith("movement"):
                self.guard_plans, self.sightings = {}, {}
            for room, known in seen.view["map"]["rooms"].items():
                if known["feature"]:
                    self.features[room] = known["feature"]
            for event in seen.mail:
                self._read(event.kind, event.data)
            self.cache = {}
        if seen.thread is not self.posts and seen.thread != self.posts:  # the same tuple, mostly
            self.cache = {}
        self.posts = seen.thread
        self.reading = reading_of(seen.thread, self.living_players)

    def _read(self, kind: str, data: Mapping[str, Any]) -> None:
        if kind == "role":
            self.reds = set(data.get("teammates", ())) | (
                {self.name} if data["team"] == RED else set()
            )
        elif kind == "terminal":
            self._terminal(data)
        elif kind == "combat":
            greens = self.trusted_greens() | {self.name}
            for attacker, target in data.get("attacks", ()):
                if target in greens and attacker != self.name and attacker not in self.reds:
                    self.witnessed.add(attacker)
        elif kind == "red_occupancy":
            self.occupancy = dict(data["rooms"])

    def _terminal(self, data: Mapping[str, Any]) -> None:
        terminal = data["terminal"]
        if terminal == "SEER":
            self.seer[data["target"]] = data["team"]
        elif terminal == "PSYCHIC":
            self.psychic = int(data["reds"])
        elif terminal == "MAPDATA":
            for room, feature in data["rooms"]:
                self.features.setdefault(room, feature)
        elif terminal == "GUARD":
            self.guard_plans = dict(data["plans"])
        elif terminal == "LOCATOR":
            self.sightings[data["target"]] = data["room"]
        elif terminal == "SUPERLOCATOR":
            self.sightings.update(data["rooms"])

    # ------------------------------------------------------------------ facts
    @property
    def me(self) -> Mapping[str, Any]:
        me: Mapping[str, Any] = self.view["me"]
        return me

    def trusted_greens(self) -> set[str]:
        return {name for name, team in self.seer.items() if team == GREEN}

    def reports(self) -> dict[str, dict[str, Any]]:
        """Each poster's latest report."""
        return self.reading.reports

    def public_scores(self) -> Mapping[str, float]:
        return self.reading.scores

    def private_scores(self) -> Mapping[str, float]:
        if "private" not in self.cache:
            self.cache["private"] = self._private_scores()
        scores: Mapping[str, float] = self.cache["private"]
        return scores

    def _private_scores(self) -> dict[str, float]:
        scores = dict(self.public_scores())
        if self.reds:
            return {name: KNOWN if name in self.reds else score for name, score in scores.items()}
        # Each name's changes are its own, so the loops may run over what I know rather
        # than over every living player (the scores are asked for many times a phase).
        for name, team in self.seer.items():
            if team and name in scores:
                scores[name] += OWN_SEER_WEIGHT * (1 if team == RED else -1)
        for name in self.witnessed:
            if name in scores:
                scores[name] = KNOWN
        scores[self.name] = -KNOWN
        for author in self.reading.called_red.get(self.name, ()):
            if author in scores:
                scores[author] = KNOWN  # only a liar calls me Red
        return scores

    def mission_rooms(self, trust_posts: bool = True) -> dict[str, list[str]]:
        """Mission feature (MISSION_ROOMS) -> its rooms, in room order, from what I saw and
        what trusted posters reported."""
        key = f"rooms/{trust_posts}"
        if key not in self.cache:
            # room_features(trust_posts) narrowed to the mission's features: what I saw wins.
            known = {
                room: feature for room, feature in self.features.items() if feature in MISSION_ROOMS
            }
            if trust_posts:
                for room, feature in self.reading.features_among(MISSION_ROOMS).items():
                    if room not in self.features:
                        known[room] = feature
            found: dict[str, list[str]] = {}
            for room in sorted(known):
                found.setdefault(known[room], []).append(room)
            self.cache[key] = found
        rooms: dict[str, list[str]] = self.cache[key]
        return rooms

    def room_features(self, trust_posts: bool = True) -> dict[str, str]:
        """Room -> feature, from what I saw and what trusted posters reported."""
        key = f"features/{trust_posts}"
        if key not in self.cache:
            # What I saw wins, then the earliest trusted poster.
            known = dict(self.reading.features) if trust_posts else {}
            known.update(self.features)
            self.cache[key] = known
        features: dict[str, str] = self.cache[key]
        return features

    def code(self) -> str | None:
        """The code, if I learned it or a trusted poster reported it."""
        return str(self.me["code"]) if self.me.get("code") else self.reading.code

    def least_suspected(self) -> list[str]:
        """The living players, least suspected first (public scores, then names)."""
        return list(self.reading.least_suspected)

    def carriers(self) -> list[str]:
        """Living players who reported a Stinger, least suspected first (public facts only,
        so every reader agrees on the mission's order)."""
        return list(self.reading.carriers)


# The living players of the latest roster read, keyed by the roster list itself (held
# here, so its identity cannot pass to another list): every view of a phase shares the
# public view's roster, so the first reader of a phase makes the tuple for all.
_roster: list[tuple[list[Any], tuple[str, ...]]] = []


def living_players(roster: list[Any]) -> tuple[str, ...]:
    if not (_roster and _roster[0][0] is roster):
        _roster[:] = [(roster, tuple(p["name"] for p in roster if p["alive"] and not p["npc"]))]
    return _roster[0][1]
