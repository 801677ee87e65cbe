"""A phase's clock as one value (docs/design.md: Deadlines): running with a deadline,
paused with time left, waiting for a public post (option `wait_for_publish`), or over.
Every reader (forms, `pbp status`, `pbp orders`, the deadline scan, reminders, the
daemon's alarm) asks the clock instead of reading the record's keys itself."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from pbp.render.languages import SOURCE_LANGUAGE
from pbp.render import card_texts, moments
from pbp.render.languages import translations
from engine.errors import Wording
from pbp.render.moments import Moment, Span
from pbp.timezones import as_utc, render_timestamp

if TYPE_CHECKING:
    from pbp.game.record import GameRecord

# What a player's form, receipt or STATUS reply says while the clock waits.
UNSET_DEADLINE = card_texts.UNSET_DEADLINE


def waiting_marker(resolved_phase: str, next_phase_id: str) -> dict[str, str]:
    """The record's `clock_waits_for`: the waiting phase, and the phase whose post it waits for."""
    return {"phase": next_phase_id, "post": resolved_phase}


def awaited_post(record: GameRecord) -> str | None:
    """The phase whose post the open phase's clock waits for, or None. A marker left from
    an earlier phase (the host advanced past it) no longer counts."""
    marker = record.clock_waits_for
    if not marker or not record.phase_id or marker.get("phase") != record.phase_id:
        return None
    return str(marker["post"])


@dataclass(frozen=True)
class Running:
    """The open phase resolves at `deadline` (None only for a game stored without one)."""

    deadline: datetime | None

    def describe(self, zone: str = "", language: str = SOURCE_LANGUAGE) -> str:
        return moments.render_moment(self.deadline, zone, language) if self.deadline else ""

    def host_line(self, now: datetime) -> Wording:
        if self.deadline is None:
            return Wording("no deadline")
        return Wording(
            "deadline %(deadline)s (in %(left)s)",
            {"deadline": Moment(self.deadline), "left": Span(self.deadline - now)},
        )

    def status_text(self) -> str:
        return render_timestamp(self.deadline) if self.deadline else "none"

    def due(self, now: datetime) -> bool:
        return self.deadline is not None and self.deadline <= now


@dataclass(frozen=True)
class Paused:
    """The host stopped the clock with `remaining` left; nothing resolves or reminds."""

    remaining: timedelta

    def describe(self, zone: str = "", language: str = SOURCE_LANGUAGE) -> str:
        return card_texts.card_text(translations(language), card_texts.PAUSED_DEADLINE)

    def host_line(self, now: datetime) -> Wording:
        return Wording("PAUSED with %(left)s left", {"left": Span(self.remaining)})

    def status_text(self) -> str:
        return "none (paused by the host)"

    def due(self, now: datetime) -> bool:
        return False


@dataclass(frozen=True)
class WaitingForPost:
    """The clock starts when the public post of phase `post` is published."""

    post: str

    def describe(self, zone: str = "", language: str = SOURCE_LANGUAGE) -> str:
        return card_texts.card_text(translations(language), UNSET_DEADLINE)

    def host_line(self, now: datetime) -> Wording:
        return Wording(
            "deadline not set yet: the clock starts when the public post of %(post)s is published",
            {"post": self.post},
        )

    def status_text(self) -> str:
        return (
            f"not set yet: the clock starts when the public post of {self.post} is published"
            " (wait_for_publish)"
        )

    def due(self, now: datetime) -> bool:
        return False


@dataclass(frozen=True)
class Over:
    """The game has ended: no phase is open."""

    def describe(self, zone: str = "", language: str = SOURCE_LANGUAGE) -> str:
        return ""

    def host_line(self, now: datetime) -> Wording:
        return Wording("over")

    def status_text(self) -> str:
        return "none"

    def due(self, now: datetime) -> bool:
        return False


PhaseClock = Running | Paused | WaitingForPost | Over


def clock_of(record: GameRecord) -> PhaseClock:
    """The clock a stored game record describes."""
    if not record.phase_id:
        return Over()
    if record.paused:
        return Paused(timedelta(seconds=record.paused.remaining_seconds))
    post = awaited_post(record)
    if post is not None:
        return WaitingForPost(post)
    return Running(as_utc(record.deadline) if record.deadline else None)
