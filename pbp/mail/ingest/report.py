"""What one ingest cycle (pbp.mail.ingest.ingest_cycle) reports: the mail it fetched, judged,
settled again, refused as too big, quarantined or failed on; and the hook that hears of
quarantined and oversized mail before it is moved (docs/design.md: Reliability rules —
Ingest)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from pbp.ports import Outcome, OversizedMail


@dataclass(frozen=True)
class QuarantinedMail:
    """A message that failed processing `MAX_ATTEMPTS` times (pbp.mail.ingest.ingest_cycle); the
    host must be told."""

    key: str
    sha256: str
    sender: str | None
    reason: str


@dataclass
class IngestReport:
    fetched: int = 0
    processed: list[tuple[str, Outcome]] = field(default_factory=list)
    resettled: list[tuple[str, Outcome]] = field(default_factory=list)
    oversized: list[OversizedMail] = field(default_factory=list)
    quarantined: list[QuarantinedMail] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)

    @property
    def idle(self) -> bool:
        return not (
            self.fetched
            or self.processed
            or self.resettled
            or self.oversized
            or self.quarantined
            or self.failed
        )


RefusalNote = Callable[[QuarantinedMail | OversizedMail], None]


def ignore_refused(_refused: QuarantinedMail | OversizedMail) -> None:
    return None
