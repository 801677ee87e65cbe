"""One row of a game's order log as a typed value (docs/design.md: Typed rows): a player's
accepted block for a phase, in canonical text, when it was received and from which mail
(Message-ID and the server's key). A vote read from the forum's thread keeps its post
among the keys a mail's row has not (`extra`: source, post, post_url, cast_at).
`from_row` and `to_row` sit at the storage edge (`StoredGame.latest_orders`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

KNOWN = frozenset({"phase", "player", "text", "received", "message_id", "mail_key"})


@dataclass(frozen=True)
class OrderRow:
    phase: str
    player: str
    text: str
    received: str
    message_id: str = ""
    mail_key: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def lines(self) -> list[str]:
        """The accepted order lines, one order each."""
        return self.text.splitlines()

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> OrderRow:
        return cls(
            row["phase"],
            row["player"],
            row["text"],
            row.get("received", ""),
            row.get("message_id", ""),
            row.get("mail_key", ""),
            {key: value for key, value in row.items() if key not in KNOWN},
        )

    def to_row(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "player": self.player,
            "text": self.text,
            "received": self.received,
            "message_id": self.message_id,
            "mail_key": self.mail_key,
            **self.extra,
        }
