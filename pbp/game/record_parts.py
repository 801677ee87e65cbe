"""The game record's nested rows as typed values (docs/design.md: Typed rows): the roster
and the NPCs, the paused clock, the checkpoints, the host's log and the result. Each has `from_json`
and `to_json` at the storage edge (`GameRecord.from_json`, `to_json`), so the rest of pbp
reads attributes, never keys; keys this version does not know are kept as they were."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Iterator, Mapping

from engine.core import PlayerSpec, Result
from engine.names import name_key
from pbp.render.languages import SOURCE_LANGUAGE


def _rest(data: Mapping[str, Any], known: set[str]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key not in known}


@dataclass(frozen=True)
class PausedClock:
    """A paused phase clock: the time that was left, exactly, and when it stopped."""

    remaining_seconds: float
    since: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PausedClock:
        return cls(
            data["remaining_seconds"],
            data.get("since", ""),
            _rest(data, {"remaining_seconds", "since"}),
        )

    def to_json(self) -> dict[str, Any]:
        return {"remaining_seconds": self.remaining_seconds, "since": self.since, **self.extra}


@dataclass(frozen=True)
class StoredCheckpoint:
    """The digest of the state after one step of the game (pbp.game.checkpoints)."""

    label: str
    digest: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> StoredCheckpoint:
        return cls(data["label"], data["digest"])

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "digest": self.digest}


@dataclass(frozen=True)
class HostAction:
    """One entry of the host's log (pbp.game.notifying.notices.log_host_action): what the host did
    (`kind`: extend, pause, resume, substitute, host kill, options), in which phase, when,
    and its own facts: the character it was about (`player`), the reason given, the new
    player and the one who left (a substitution), the deadline set, the options changed."""

    kind: str
    phase: str
    at: str = ""
    player: str = ""
    reason: str = ""
    played_by: str = ""
    replaced: str = ""
    deadline: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    extra: Mapping[str, Any] = field(default_factory=dict)

    KEYS = ("player", "reason", "played_by", "replaced", "deadline")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HostAction:
        return cls(
            data["kind"],
            data["phase"],
            data.get("at", ""),
            **{key: data[key] for key in cls.KEYS if key in data},
            options=data.get("options", {}),
            extra=_rest(data, {"kind", "phase", "at", "options", *cls.KEYS}),
        )

    def to_json(self) -> dict[str, Any]:
        """As stored: a fact the action does not have is not written."""
        data: dict[str, Any] = {"kind": self.kind, "phase": self.phase}
        data.update(
            {
                key: getattr(self, key)
                for key in ("player", "played_by", "replaced", "reason", "deadline")
                if getattr(self, key)
            }
        )
        if self.kind == "host_kill" and "reason" not in data:
            data["reason"] = self.reason  # a host kill always logs its reason, even an empty one
        if self.options or self.kind == "options":
            data["options"] = dict(self.options)
        if self.at:
            data["at"] = self.at
        return {**data, **self.extra}


def result_from_json(data: Mapping[str, Any] | None) -> Result | None:
    """A finished game's result as the engine gave it (`Result.to_json` wrote it)."""
    if not data:
        return None
    return Result(tuple(data["winners"]), data["path"], tuple(data.get("players", ())))


@dataclass(frozen=True)
class RosterPlayer:
    """A character played by a person, and who plays it now (`played_by` after a
    substitution; `replaced` lists the earlier players)."""

    name: str
    email: str
    timezone: str = ""
    forum_name: str = ""
    played_by: str = ""
    replaced: tuple[Mapping[str, Any], ...] = ()
    # The language the player reads (docs/design.md: Each reader's language); stored only
    # when it is not English, so a game written before languages reads unchanged.
    language: str = SOURCE_LANGUAGE
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this version does not know

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RosterPlayer:
        known = {"name", "email", "timezone", "forum_name", "played_by", "replaced", "language"}
        return cls(
            name=data["name"],
            email=data["email"],
            timezone=data.get("timezone", ""),
            forum_name=data.get("forum_name", ""),
            played_by=data.get("played_by", ""),
            language=data.get("language") or SOURCE_LANGUAGE,
            replaced=tuple(dict(r) for r in data.get("replaced", ())),
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.name,
            "email": self.email,
            "timezone": self.timezone,
            "forum_name": self.forum_name,
        }
        if self.played_by:
            data["played_by"] = self.played_by
        if self.replaced:
            data["replaced"] = [dict(r) for r in self.replaced]
        if self.language != SOURCE_LANGUAGE:
            data["language"] = self.language
        return {**data, **self.extra}

    @property
    def player(self) -> str:
        """Who plays the character now: the newcomer after a substitution, else its name."""
        return self.played_by or self.name

    def handed_to(
        self, newcomer: str, email: str, timezone: str | None, forum_name: str
    ) -> RosterPlayer:
        """The character played by `newcomer` from now on; the player who leaves joins
        `replaced`. `timezone` None keeps the zone the deadlines were shown in."""
        leaving = {"played_by": self.player, "email": self.email, "forum_name": self.forum_name}
        return replace(
            self,
            email=email,
            played_by=newcomer,
            forum_name=forum_name,
            timezone=self.timezone if timezone is None else timezone,
            replaced=(*self.replaced, leaving),
        )


@dataclass(frozen=True)
class Roster:
    """The players' characters, in roster order."""

    players: tuple[RosterPlayer, ...]

    def __iter__(self) -> Iterator[RosterPlayer]:
        return iter(self.players)

    def __len__(self) -> int:
        return len(self.players)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(player.name for player in self.players)

    def by_name(self, name: str) -> RosterPlayer | None:
        """The character called `name`, ignoring case and accents (`jose` finds José)."""
        key = name_key(name)
        return next((p for p in self.players if name_key(p.name) == key), None)

    def of(self, name: str) -> RosterPlayer:
        """The entry of the character called exactly `name` (a name pbp itself stored)."""
        return next(p for p in self.players if p.name == name)

    def at(self, address: str) -> RosterPlayer:
        """The entry of the player at `address`, which must be on the roster."""
        return next(p for p in self.players if p.email == address)

    def by_address(self, address: str) -> RosterPlayer | None:
        return next((p for p in self.players if p.email == address), None)

    def zone_of(self, name: str | None) -> str:
        """The roster time zone of the player of character `name` ("" means UTC)."""
        return next((p.timezone for p in self.players if p.name == name), "")

    def language_of(self, name: str | None) -> str:
        """The language the player of character `name` reads (English for a name not on
        the roster: an NPC's mail goes to the host)."""
        return next((p.language for p in self.players if p.name == name), SOURCE_LANGUAGE)

    def with_player(self, player: RosterPlayer) -> Roster:
        """The roster with `player`'s character's entry made `player` (a substitution)."""
        return Roster(tuple(player if p.name == player.name else p for p in self.players))


@dataclass(frozen=True)
class Npc:
    """A character the host plays (`--npc NAME:CLASS:TEAM`)."""

    name: str
    npc_class: str
    team: str

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Npc:
        return cls(data["name"], data["class"], data["team"])

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "class": self.npc_class, "team": self.team}


def player_specs(roster: Iterable[RosterPlayer], npcs: Iterable[Npc]) -> list[PlayerSpec]:
    """The characters a game is dealt: the roster's, then the NPCs."""
    return [PlayerSpec(p.name) for p in roster] + [
        PlayerSpec(n.name, npc=True, npc_class=n.npc_class, npc_team=n.team) for n in npcs
    ]
