"""Dates, times and spans of time in the reader's language (docs/design.md: Each reader's
language): English is pbp.timezones' own wording, byte for byte; another language's days,
months and units come from Babel's CLDR data for it (its plural forms included), the zone
abbreviation and UTC as in English, since a zone's short name is what a player looks up.

Babel is imported only when a language other than English is written."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from pbp.render.languages import SOURCE_LANGUAGE
from pbp import timezones

# The units of a span of time, largest first, as CLDR names them; at most two are shown.
_UNITS = (
    ("duration-day", 86400),
    ("duration-hour", 3600),
    ("duration-minute", 60),
    ("duration-second", 1),
)


def _day(moment: datetime, language: str, with_year: bool) -> str:
    from babel.dates import format_skeleton

    return str(format_skeleton("yMMMEd" if with_year else "MMMEd", moment, locale=language))


def _clock(moment: datetime, language: str, seconds: bool = False) -> str:
    from babel.dates import format_time

    return str(format_time(moment, "HH:mm:ss" if seconds else "HH:mm", locale=language))


def render_moment(
    moment: datetime | str, zone_name: str | None = None, language: str = SOURCE_LANGUAGE
) -> str:
    """A deadline as a player reads it, in their zone and in UTC (timezones.render_moment):
    `So., 1. Dez. 2030, 19:00 CET (18:00 UTC)` in German."""
    if language == SOURCE_LANGUAGE:
        return timezones.render_moment(moment, zone_name)
    utc = timezones.as_utc(moment)
    where = timezones.zone(zone_name)
    if where is timezones.UTC:
        return f"{_day(utc, language, True)}, {_clock(utc, language)} UTC"
    local = utc.astimezone(where)
    utc_clock = f"{_clock(utc, language)} UTC"
    utc_part = (
        utc_clock if local.date() == utc.date() else f"{_day(utc, language, False)}, {utc_clock}"
    )
    return (
        f"{_day(local, language, True)}, {_clock(local, language)} "
        f"{timezones.zone_abbreviation(local)} ({utc_part})"
    )


def render_received(
    moment: datetime | str, zone_name: str | None = None, language: str = SOURCE_LANGUAGE
) -> str:
    """When a player's mail was received (timezones.render_received): the UTC stamp as in
    English, the local time beside it in the reader's language."""
    if language == SOURCE_LANGUAGE:
        return timezones.render_received(moment, zone_name)
    utc = timezones.as_utc(moment)
    where = timezones.zone(zone_name)
    if where is timezones.UTC:
        return timezones.render_timestamp(utc)
    local = utc.astimezone(where)
    day = f"{_day(local, language, False)}, " if local.date() != utc.date() else ""
    return (
        f"{timezones.render_timestamp(utc)} ({day}{_clock(local, language, seconds=True)} "
        f"{timezones.zone_abbreviation(local)})"
    )


def render_remaining(span: timedelta, language: str = SOURCE_LANGUAGE) -> str:
    """How long is left, at most two units (timezones.render_remaining): `2 Tage 3 Stunden`,
    each unit in the language's plural form for its number."""
    if language == SOURCE_LANGUAGE:
        return timezones.render_remaining(span)
    from babel.units import format_unit

    seconds = max(0, int(span.total_seconds()))
    parts = []
    for unit, size in _UNITS:
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(str(format_unit(amount, unit, length="long", locale=language)))
    return " ".join(parts[:2]) or str(
        format_unit(0, "duration-second", length="long", locale=language)
    )


def language_name(code: str, reader: str = SOURCE_LANGUAGE) -> str:
    """The name of the language `code` as a reader of `reader` writes it: `German (de)` in
    English, `Deutsch (de)` in German (CLDR's names, through Babel)."""
    from babel import Locale, UnknownLocaleError

    try:
        return f"{Locale.parse(code).get_display_name(reader)} ({code})"
    except (UnknownLocaleError, ValueError):
        return code


@dataclass(frozen=True)
class Moment:
    """A time as a value of a sentence (engine.errors.Wording): `str()` is the English of
    `timezones.render_moment`, `in_language` the reader's (pbp.render.refusals.worded)."""

    at: datetime | str
    zone_name: str | None = None

    def __str__(self) -> str:
        return timezones.render_moment(self.at, self.zone_name)

    def in_language(self, language: str) -> str:
        return render_moment(self.at, self.zone_name, language)


@dataclass(frozen=True)
class Span:
    """How long is left, as a value of a sentence (`Moment`'s kind): `2 days 3 hours`."""

    span: timedelta

    def __str__(self) -> str:
        return timezones.render_remaining(self.span)

    def in_language(self, language: str) -> str:
        return render_remaining(self.span, language)
