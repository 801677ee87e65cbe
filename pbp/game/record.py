"""The game record as a typed, immutable value (docs/design.md: Storage): what the `game`
table of a game file holds, read with `GameRecord.from_json` and written back unchanged by
`to_json`. The roster answers lookups by name, by address and for a time zone."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

# Keys written only once the game has seen them (a pause, a host action, a reminder, a
# clock waiting for its post); absent from older records, so absent keys stay absent.
OPTIONAL_KEYS = ("paused", "host_actions", "reminders_sent", "clock_waits_for")


@dataclass(frozen=True)
class RosterPlayer:
    """A character and who plays it now (`played_by` after a substitution)."""

    name: str
    email: str
    timezone: str = ""
    forum_name: str = ""
    played_by: str = ""
    replaced: tuple[Mapping[str, Any], ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this version does not know

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RosterPlayer:
        known = {"name", "email", "timezone", "forum_name", "played_by", "replaced"}
        return cls(name=data["name"], email=data["email"], timezone=data.get("timezone", ""),
                   forum_name=data.get("forum_name", ""), played_by=data.get("played_by", ""),
                   replaced=tuple(dict(r) for r in data.get("replaced", ())),
                   extra={k: v for k, v in data.items() if k not in known})

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "email": self.email, "timezone": self.timezone,
                                "forum_name": self.forum_name}
        if self.played_by:
            data["played_by"] = self.played_by
        if self.replaced:
            data["replaced"] = [dict(r) for r in self.replaced]
        return {**data, **self.extra}


@dataclass(frozen=True)
class Roster:
    players: tuple[RosterPlayer, ...]

    def __iter__(self) -> Iterator[RosterPlayer]:
        return iter(self.players)

    def by_name(self, name: str) -> RosterPlayer | None:
        """The character called `name`, ignoring case."""
        return next((p for p in self.players if p.name.lower() == name.lower()), None)

    def by_address(self, address: str) -> RosterPlayer | None:
        return next((p for p in self.players if p.email == address), None)

    def zone_of(self, name: str | None) -> str:
        """The roster time zone of the player of character `name` ("" means UTC)."""
        return next((p.timezone for p in self.players if p.name == name), "")


@dataclass(frozen=True)
class Substitution:
    """A newcomer took over a character (`pbp substitute`): who `left`, who `joined`, in
    which phase and when; the end-of-game post credits the newcomers from these."""

    character: str
    left: str
    joined: str
    phase: str
    at: str


@dataclass(frozen=True)
class GameRecord:
    id: str
    ruleset: str
    seed: str
    roster: Roster
    tokens: Mapping[str, str]
    schedule: Mapping[str, Any]
    state: Mapping[str, Any]
    phase_id: str  # "" once the game is over
    opened: str
    deadline: str  # "" while paused, waiting for a post, or over
    resolved: tuple[str, ...]
    created: str
    options: Mapping[str, Any] = field(default_factory=dict)
    moderator_options: Mapping[str, str] = field(default_factory=dict)
    checkpoints: tuple[Mapping[str, Any], ...] = ()
    npcs: tuple[Mapping[str, str], ...] = ()
    result: Mapping[str, Any] | None = None
    outbox_sequence: int = 0
    optional: Mapping[str, Any] = field(default_factory=dict)  # OPTIONAL_KEYS present in the file

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        return cls(
            id=data["id"], ruleset=data["ruleset"], seed=data["seed"],
            roster=Roster(tuple(RosterPlayer.from_json(e) for e in data["roster"])),
            tokens=dict(data["tokens"]), schedule=data["schedule"], state=data["state"],
            phase_id=data["phase_id"], opened=data["opened"], deadline=data["deadline"],
            resolved=tuple(data["resolved"]), created=data["created"], options=dict(data.get("options", {})),
            moderator_options=dict(data.get("moderator_options", {})),
            checkpoints=tuple(data.get("checkpoints", ())), npcs=tuple(data.get("npcs", ())),
            result=data.get("result"), outbox_sequence=data.get("outbox_sequence", 0),
            optional={k: data[k] for k in OPTIONAL_KEYS if k in data})

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "ruleset": self.ruleset, "seed": self.seed, "options": dict(self.options),
            "moderator_options": dict(self.moderator_options), "checkpoints": [dict(c) for c in self.checkpoints],
            "roster": [p.to_json() for p in self.roster], "npcs": [dict(n) for n in self.npcs],
            "tokens": dict(self.tokens), "schedule": self.schedule, "state": self.state, "phase_id": self.phase_id,
            "opened": self.opened, "deadline": self.deadline, "resolved": list(self.resolved),
            "result": self.result, "created": self.created, "outbox_sequence": self.outbox_sequence,
            **self.optional,
        }

    @property
    def running(self) -> bool:
        return bool(self.phase_id)

    @property
    def substitutions(self) -> tuple[Substitution, ...]:
        """Every substitution, oldest first, from the host's log (a log written before
        the leaving player was logged names the character as the one who left)."""
        return tuple(Substitution(a["player"], a.get("replaced", a["player"]), a["played_by"], a["phase"], a["at"])
                     for a in self.optional.get("host_actions", ()) if a["kind"] == "substitute")
