"""What a scripted Werewolf player remembers of the public record (docs/balance.md: The
suspicion model): deaths and how they were announced, flips where roles are shown, every
nomination and vote, and the claims posted in the thread. Built only from the public events
and posts a player has seen, so every player who saw the same record remembers the same."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from engine.core import Event
from engine.players import Post

WOLF, NOT_WOLF = "wolf", "not wolf"
WOLF_ROLES = frozenset({"werewolf", "howler"})


@dataclass
class Claim:
    """A player's latest claim: the role and what they say each player is."""

    role: str
    results: dict[str, str]
    day: int


@dataclass
class Trial:
    """One day's trial: who stood, who voted for whom (None: NO LYNCH), who was lynched."""

    day: int
    defendants: tuple[str, ...]
    votes: dict[str, str | None]
    nominations: dict[str, str] = field(default_factory=dict)
    lynched: tuple[str, ...] = ()


class PublicRecord:
    """The public facts one player has read so far, in the order they came."""

    def __init__(self) -> None:
        self.day = 0
        self.dead: set[str] = set()
        self.night_dead: set[str] = set()
        self.flips: dict[str, str] = {}  # a dead player's role, where roles are shown
        self.trials: list[Trial] = []
        self.nominations: dict[int, dict[str, str]] = {}
        self.claims: dict[str, Claim] = {}
        self.claim_order: list[str] = []  # claimants, first claim first
        self.posts_read = 0
        self.events_read = 0  # with posts_read: how far the record has come

    # ------------------------------------------------------------------ reading
    def read_events(self, events: Iterable[Event]) -> None:
        for event in events:
            self.events_read += 1
            reader = getattr(self, f"_on_{event.kind}", None)
            if reader is not None:
                reader(event.data)

    def read_thread(self, thread: tuple[Post, ...]) -> None:
        for post in thread[self.posts_read :]:
            if post.kind == "claim" and post.author not in self.dead:
                if post.author not in self.claims:
                    self.claim_order.append(post.author)
                self.claims[post.author] = Claim(
                    str(post.data["role"]), dict(post.data.get("results", {})), self.day
                )
        self.posts_read = len(thread)

    def _on_dawn(self, data: Mapping[str, Any]) -> None:
        self.day = int(data["day"])
        for name in data["deaths"]:
            self.dead.add(name)
            self.night_dead.add(name)
        self.flips.update(data.get("roles", {}))

    def _on_nominations(self, data: Mapping[str, Any]) -> None:
        self.day = int(data["day"])
        self.nominations.setdefault(self.day, {}).update(data["nominations"])

    def _on_votes(self, data: Mapping[str, Any]) -> None:
        self.trials.append(
            Trial(
                int(data["day"]),
                tuple(data["defendants"]),
                dict(data["votes"]),
                dict(self.nominations.get(int(data["day"]), {})),
            )
        )

    def _on_lynch(self, data: Mapping[str, Any]) -> None:
        name = data["player"]
        self.dead.add(name)
        if "role" in data:
            self.flips[name] = data["role"]
        if self.trials and self.trials[-1].day == int(data["day"]):
            self.trials[-1].lynched += (name,)

    def _on_also_died(self, data: Mapping[str, Any]) -> None:
        self.dead.add(data["player"])
        if "role" in data:
            self.flips[data["player"]] = data["role"]

    _on_host_kill = _on_also_died

    # ------------------------------------------------------------------ facts
    def is_wolf_flip(self, name: str) -> bool | None:
        """Whether a dead player was shown to be a wolf (None: not shown)."""
        role = self.flips.get(name)
        if role is None:
            return None
        return any(part in WOLF_ROLES for part in role.split("-"))

    @property
    def progress(self) -> tuple[int, int]:
        """The events and posts read so far: the record changes only when this does."""
        return self.events_read, self.posts_read

    def claimants(self, role: str) -> list[str]:
        return [name for name in self.claim_order if self.claims[name].role == role]
