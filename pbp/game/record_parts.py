"""The game record's nested rows as typed values (docs/design.md: Typed rows):
the paused clock, the checkpoints, the host's log and the result. Each has `from_json`
and `to_json` at the storage edge (`GameRecord.from_json`, `to_json`), so the rest of pbp
reads attributes, never keys; keys this version does not know are kept as they were."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from engine.core import Result


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
