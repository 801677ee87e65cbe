"""The game record as a typed, immutable value (docs/design.md: Storage): what the `game`
table of a game file holds. `load` (pbp.game.stored) decodes it once with
`GameRecord.from_json`; a change is a new value (`dataclasses.replace`) handed to the one
writer, `pbp.game.stored.save`, which writes it back with `to_json`. The JSON's keys live
here and nowhere else; keys this version does not know are kept as they were (`extra`).

The roster (pbp.game.record_parts.Roster) answers lookups by name (case and accents
ignored, as orders name players), by address and for a time zone; `characters` are the
players' characters and the NPCs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from engine.core import PlayerSpec, Result
from pbp.storage.signup_record import PendingRequest, pending_from_json, pending_to_json
from pbp.game.record_parts import (
    HostAction,
    Npc,
    PausedClock,
    Roster,
    RosterPlayer,
    StoredCheckpoint,
    player_specs,
    result_from_json,
)

# The record's keys this version knows; any other is kept in `extra`, unchanged.
KNOWN_KEYS = frozenset(
    {
        "id",
        "ruleset",
        "seed",
        "options",
        "moderator_options",
        "checkpoints",
        "roster",
        "npcs",
        "tokens",
        "schedule",
        "state",
        "phase_id",
        "opened",
        "deadline",
        "resolved",
        "result",
        "created",
        "outbox_sequence",
        "paused",
        "host_actions",
        "reminders_sent",
        "clock_waits_for",
        "watchers",
        "watcher_languages",
        "watch_pending",
        "new_addresses_answered",
        "message_key",
        "host_token",
        "rules_version",
        "data_format",
        "written_by",
    }
)


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
    schedule: Mapping[str, str]
    state: Mapping[str, Any]
    phase_id: str  # "" once the game is over
    opened: str
    deadline: str  # "" while paused, waiting for a post, or over
    resolved: tuple[str, ...]
    created: str
    options: Mapping[str, Any] = field(default_factory=dict)
    moderator_options: Mapping[str, str] = field(default_factory=dict)
    checkpoints: tuple[StoredCheckpoint, ...] = ()
    npcs: tuple[Npc, ...] = ()
    result: Result | None = None
    outbox_sequence: int = 0
    # The phase clock's own keys (pbp.game.clock reads them): time left while paused, and
    # the post a waiting clock waits for.
    paused: PausedClock | None = None
    clock_waits_for: Mapping[str, str] | None = None
    host_actions: tuple[HostAction, ...] = ()  # the host's log (pbp.game.notifying.notices)
    reminders_sent: tuple[
        str, ...
    ] = ()  # keys of the reminders queued (pbp.game.notifying.reminders)
    watchers: tuple[str, ...] = ()  # confirmed spectators' addresses (pbp.signups)
    watcher_languages: Mapping[str, str] = field(
        default_factory=dict
    )  # a watcher's own, when given
    watch_pending: Mapping[str, PendingRequest] = field(default_factory=dict)  # WATCH codes waiting
    # Today's answers to addresses the game does not know ({day, count}; pbp.signups.mail).
    new_addresses_answered: Mapping[str, Any] = field(default_factory=dict)
    message_key: str = ""  # the outbox's key for Message-IDs (pbp.storage.outbox_queue)
    host_token: str = ""  # made on first use (pbp.storage.host_token)
    # The ruleset's rules version the game started under (its card's), and the data format
    # and pbp release that last wrote the record (docs/design.md: Releases and upgrades);
    # `pbp.game.stored.save` stamps the last two.
    rules_version: int = 0
    data_format: int = 0
    written_by: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys this version does not know

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        """The record a game file holds (an optional key may be missing or null)."""

        def optional(key: str, empty: Any) -> Any:
            return data.get(key) or empty

        return cls(
            id=data["id"],
            ruleset=data["ruleset"],
            seed=data["seed"],
            roster=Roster(tuple(RosterPlayer.from_json(e) for e in data["roster"])),
            tokens=data["tokens"],
            schedule=data["schedule"],
            state=data["state"],
            phase_id=data["phase_id"] or "",
            opened=data["opened"],
            deadline=data["deadline"] or "",
            resolved=tuple(data["resolved"]),
            created=data["created"],
            options=optional("options", {}),
            moderator_options=optional("moderator_options", {}),
            checkpoints=tuple(StoredCheckpoint.from_json(c) for c in optional("checkpoints", ())),
            npcs=tuple(Npc.from_json(n) for n in optional("npcs", ())),
            result=result_from_json(data.get("result")),
            outbox_sequence=optional("outbox_sequence", 0),
            paused=PausedClock.from_json(data["paused"]) if data.get("paused") else None,
            clock_waits_for=optional("clock_waits_for", None),
            host_actions=tuple(HostAction.from_json(a) for a in optional("host_actions", ())),
            reminders_sent=tuple(optional("reminders_sent", ())),
            watchers=tuple(optional("watchers", ())),
            watcher_languages=optional("watcher_languages", {}),
            watch_pending=pending_from_json(data.get("watch_pending")),
            new_addresses_answered=optional("new_addresses_answered", {}),
            message_key=optional("message_key", ""),
            host_token=optional("host_token", ""),
            rules_version=optional("rules_version", 0),
            data_format=optional("data_format", 0),
            written_by=optional("written_by", ""),
            extra={k: v for k, v in data.items() if k not in KNOWN_KEYS},
        )

    def to_json(self) -> dict[str, Any]:
        """The record as stored; a key the game never had is written only once it has a value."""
        data: dict[str, Any] = {
            "id": self.id,
            "ruleset": self.ruleset,
            "seed": self.seed,
            "options": dict(self.options),
            "moderator_options": dict(self.moderator_options),
            "checkpoints": [c.to_json() for c in self.checkpoints],
            "roster": [p.to_json() for p in self.roster],
            "npcs": [n.to_json() for n in self.npcs],
            "tokens": dict(self.tokens),
            "schedule": self.schedule,
            "state": self.state,
            "phase_id": self.phase_id,
            "opened": self.opened,
            "deadline": self.deadline,
            "resolved": list(self.resolved),
            "result": self.result.to_json() if self.result else None,
            "created": self.created,
            "outbox_sequence": self.outbox_sequence,
        }
        optional = {
            "paused": self.paused.to_json() if self.paused else None,
            "clock_waits_for": self.clock_waits_for,
            "host_actions": [a.to_json() for a in self.host_actions],
            "reminders_sent": list(self.reminders_sent),
            "watchers": list(self.watchers),
            "watch_pending": pending_to_json(self.watch_pending),
            "watcher_languages": dict(self.watcher_languages),
            "new_addresses_answered": dict(self.new_addresses_answered),
            "message_key": self.message_key,
            "host_token": self.host_token,
            "rules_version": self.rules_version,
            "data_format": self.data_format,
            "written_by": self.written_by,
        }
        data.update({key: value for key, value in optional.items() if value})
        return {**data, **self.extra}

    @property
    def running(self) -> bool:
        return bool(self.phase_id)

    @property
    def npc_names(self) -> tuple[str, ...]:
        """The host-run characters (NPCs), in the order the host named them."""
        return tuple(npc.name for npc in self.npcs)

    @property
    def player_specs(self) -> list[PlayerSpec]:
        """The characters the game was dealt (a replay deals them again from the seed)."""
        return player_specs(self.roster, self.npcs)

    @property
    def characters(self) -> tuple[str, ...]:
        """Every character of the game: the players', then the NPCs."""
        return (*self.roster.names, *self.npc_names)

    @property
    def substitutions(self) -> tuple[Substitution, ...]:
        """Every substitution, oldest first, from the host's log (a log written before
        the leaving player was logged names the character as the one who left)."""
        return tuple(
            Substitution(a.player, a.replaced or a.player, a.played_by, a.phase, a.at)
            for a in self.host_actions
            if a.kind == "substitute"
        )
