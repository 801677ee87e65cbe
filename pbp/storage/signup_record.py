"""A game open for sign-ups, as typed values (docs/design.md: Sign-ups and spectators,
Typed rows): the record of its file (`SignupRecord`), each confirmed sign-up
(`SignupEntry`) and each request waiting for its code (`PendingRequest`, which a running
game's WATCH requests are too). `from_json` and `to_json` sit at the storage edge
(pbp.storage.open_games); keys this version does not know are kept as they were."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


def _rest(data: Mapping[str, Any], known: frozenset[str]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in known}


@dataclass(frozen=True)
class SignupEntry:
    """One confirmed sign-up: the character's name, the address, when, and the time zone
    and forum account given with JOIN."""

    name: str
    email: str
    joined: str = ""
    timezone: str = ""
    forum_name: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    language: str = ""  # given with JOIN … LANG=; "" is the game's (stored only when given)

    KNOWN = frozenset({"name", "email", "joined", "timezone", "forum_name", "language"})

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SignupEntry:
        return cls(
            data["name"],
            data["email"],
            data.get("joined", ""),
            data.get("timezone", ""),
            data.get("forum_name", ""),
            _rest(data, cls.KNOWN),
            data.get("language", ""),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "email": self.email,
            "joined": self.joined,
            "timezone": self.timezone,
            "forum_name": self.forum_name,
            **({"language": self.language} if self.language else {}),
            **self.extra,
        }


@dataclass(frozen=True)
class PendingRequest:
    """A request waiting for its one-time code (pbp.signups.codes): `action` (join, leave,
    watch, unwatch), the address that made it, the name it gives, when; a JOIN's time zone
    and forum account besides."""

    action: str
    email: str
    name: str
    created: str
    timezone: str = ""
    forum_name: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    language: str = ""  # a JOIN's or WATCH's LANG=, stored only when given

    KNOWN = frozenset({"action", "email", "name", "created", "timezone", "forum_name", "language"})

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PendingRequest:
        return cls(
            data["action"],
            data["email"],
            data["name"],
            data["created"],
            data.get("timezone", ""),
            data.get("forum_name", ""),
            _rest(data, cls.KNOWN),
            data.get("language", ""),
        )

    def to_json(self) -> dict[str, Any]:
        """As stored: a JOIN's time zone and forum account only on a JOIN's request."""
        data = {
            "action": self.action,
            "email": self.email,
            "name": self.name,
            "created": self.created,
        }
        if self.action == "join":
            data.update(timezone=self.timezone, forum_name=self.forum_name)
        if self.language:
            data["language"] = self.language
        return {**data, **self.extra}


def pending_from_json(data: Mapping[str, Any] | None) -> dict[str, PendingRequest]:
    return {code: PendingRequest.from_json(request) for code, request in (data or {}).items()}


def pending_to_json(pending: Mapping[str, PendingRequest]) -> dict[str, Any]:
    return {code: request.to_json() for code, request in pending.items()}


@dataclass(frozen=True)
class SignupRecord:
    """An open game's record: its ruleset and player range, when sign-ups close, the game
    it will start (seed, options, schedule, NPCs, dialect), its `status` (`open`, then
    `started`, with how many were `dealt` in and when), the sign-ups in order (the first
    `players_max` play, the rest are the substitutes' list), the requests waiting for a
    code, whether the host was told it closed short, and today's answers to new
    addresses ({day, count})."""

    id: str
    ruleset: str
    players_min: int
    players_max: int
    closes: str
    status: str
    seed: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    schedule_text: str = ""
    schedule: Mapping[str, str] = field(default_factory=dict)
    entries: tuple[SignupEntry, ...] = ()
    pending: Mapping[str, PendingRequest] = field(default_factory=dict)
    host_told: bool = False
    start_failed: bool = False  # the start was tried and failed; the host was told
    created: str = ""
    npcs: tuple[Mapping[str, Any], ...] = ()
    dialect: str = ""
    dealt: int | None = None
    started: str = ""
    new_addresses_answered: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this version does not know

    KNOWN = frozenset(
        {
            "id",
            "ruleset",
            "players_min",
            "players_max",
            "closes",
            "status",
            "seed",
            "options",
            "schedule_text",
            "schedule",
            "entries",
            "pending",
            "host_told",
            "start_failed",
            "created",
            "npcs",
            "dialect",
            "dealt",
            "started",
            "new_addresses_answered",
        }
    )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SignupRecord:
        return cls(
            id=data["id"],
            ruleset=data["ruleset"],
            players_min=data["players_min"],
            players_max=data["players_max"],
            closes=data["closes"],
            status=data["status"],
            seed=data.get("seed") or "",
            options=data.get("options") or {},
            schedule_text=data.get("schedule_text") or "",
            schedule=data.get("schedule") or {},
            entries=tuple(SignupEntry.from_json(entry) for entry in data.get("entries", ())),
            pending=pending_from_json(data.get("pending")),
            host_told=bool(data.get("host_told")),
            start_failed=bool(data.get("start_failed")),
            created=data.get("created", ""),
            npcs=tuple(data.get("npcs") or ()),
            dialect=data.get("dialect") or "",
            dealt=data.get("dealt"),
            started=data.get("started", ""),
            new_addresses_answered=data.get("new_addresses_answered") or {},
            extra=_rest(data, cls.KNOWN),
        )

    def to_json(self) -> dict[str, Any]:
        """As stored; a key the file never had is written only once it has a value."""
        data: dict[str, Any] = {
            "id": self.id,
            "ruleset": self.ruleset,
            "players_min": self.players_min,
            "players_max": self.players_max,
            "closes": self.closes,
            "seed": self.seed,
            "options": dict(self.options),
            "schedule_text": self.schedule_text,
            "schedule": dict(self.schedule),
            "status": self.status,
            "entries": [entry.to_json() for entry in self.entries],
            "pending": pending_to_json(self.pending),
            "host_told": self.host_told,
            "created": self.created,
            "npcs": list(self.npcs),
            "dialect": self.dialect,
        }
        optional = {
            "dealt": self.dealt,
            "started": self.started,
            "start_failed": self.start_failed,
            "new_addresses_answered": dict(self.new_addresses_answered),
        }
        data.update({key: value for key, value in optional.items() if value})
        return {**data, **self.extra}

    @property
    def seats(self) -> int:
        """How many sign-ups play: `players_max` until the start, then how many were dealt in."""
        return self.dealt if self.dealt is not None else self.players_max
