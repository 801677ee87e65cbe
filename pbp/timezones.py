"""Time as people write and read it (docs/design.md: Reliability rules, Deadlines).

The host types durations (`90s`, `10m`, `2h`, `1d12h`) and absolute times with a zone
(`2030-12-01 18:00 Europe/Berlin`, `2030-12-01T18:00-05:00`, `2030-12-01 18:00 UTC`);
players read every deadline in their roster time zone and in UTC
(`Sun 1 Dec 2030, 19:00 CET (18:00 UTC)`).

Everything stored is an aware UTC `datetime` (ISO text in storage); local time exists only
at the two edges, parsing and rendering. The clock is never read here: callers pass `now`.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbp.errors import UserError

if TYPE_CHECKING:
    from engine.errors import Wording

UTC = timezone.utc

_DURATION_PART = re.compile(r"(\d+)\s*([wdhms])", re.IGNORECASE)
_DURATION = re.compile(r"^\s*(?:\d+\s*[wdhms]\s*)+$", re.IGNORECASE)
_UNIT_SECONDS = {"w": 7 * 86400, "d": 86400, "h": 3600, "m": 60, "s": 1}

# `2030-12-01 18:00`, `2030-12-01T18:00:30`, then an optional offset (`Z`, `+01:00`, `-0500`)
_LOCAL_TIME = re.compile(
    r"^(?P<date>\d{4}-\d{2}-\d{2})[T ](?P<time>\d{1,2}:\d{2}(?::\d{2})?)"
    r"(?P<offset>Z|[+-]\d{2}:?\d{2})?$",
    re.IGNORECASE,
)


def _duration_help() -> Wording:
    """How to write a duration, the field `help` of the refusals below (a Wording: the desk
    words it in the host's language; docs/design.md: The desk's words)."""
    from engine.errors import Wording  # not at import: `pbp --version` loads no engine

    return Wording("a duration like 90s, 10m, 2h or 1d12h")


def _moment_help() -> Wording:
    """How to write a time with its zone (`_duration_help`'s kind)."""
    from engine.errors import Wording

    return Wording(
        "a time with a zone like '2030-12-01 18:00 Europe/Berlin', "
        "'2030-12-01T18:00-05:00' or '2030-12-01 18:00 UTC'"
    )


class TimeInputError(UserError, ValueError):
    """A duration, time or zone the host typed cannot be read; the message says how to write it.

    A `UserError`, so a command that meets one shows it as its one-line error."""


# --------------------------------------------------------------------------- zones
def zone(name: str | None) -> ZoneInfo | timezone:
    """The zone called `name` (an IANA name like `Europe/Berlin`, or `UTC`); empty: UTC."""
    if not name or not name.strip() or name.strip().upper() in ("UTC", "Z", "GMT"):
        return UTC
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise TimeInputError.of(
            "Unknown time zone %(zone)s; use an IANA name like Europe/Berlin, "
            "America/New_York or UTC.",
            zone=repr(name.strip()),
        ) from None


def zone_problem(name: str) -> str | None:
    """Why `name` cannot be a roster time zone, or None when it can (empty means UTC)."""
    try:
        zone(name)
    except TimeInputError as error:
        return str(error)
    return None


# --------------------------------------------------------------------------- parsing
def parse_duration(text: str) -> timedelta:
    """`90s`, `10m`, `2h`, `1d12h`, `1w` (weeks, days, hours, minutes, seconds, combined)."""
    if not _DURATION.match(text or ""):
        raise TimeInputError.of(
            "%(text)s is not a duration; write %(help)s.", text=repr(text), help=_duration_help()
        )
    seconds = sum(
        int(amount) * _UNIT_SECONDS[unit.lower()] for amount, unit in _DURATION_PART.findall(text)
    )
    if seconds <= 0:
        raise TimeInputError.of(
            "%(text)s is no time at all; write %(help)s.", text=repr(text), help=_duration_help()
        )
    return timedelta(seconds=seconds)


def parse_moment(text: str) -> datetime:
    """An absolute time with its zone, as an aware UTC datetime.

    The zone is either an offset glued to the time (`2030-12-01T18:00-05:00`, `…Z`) or a
    word after it (`2030-12-01 18:00 Europe/Berlin`, `… UTC`). A time with no zone is
    refused: guessing the host's zone is how deadlines end up an hour off.
    """
    words = (text or "").strip().split()
    if len(words) >= 2 and re.match(r"^\d{1,2}:\d{2}", words[1]):  # `2030-12-01 18:00 …`
        words = [f"{words[0]}T{words[1]}", *words[2:]]
    if not words or len(words) > 2:
        raise TimeInputError.of(
            "%(text)s is not a time; write %(help)s.", text=repr(text), help=_moment_help()
        )
    match = _LOCAL_TIME.match(words[0])
    if not match:
        raise TimeInputError.of(
            "%(text)s is not a time; write %(help)s.", text=repr(text), help=_moment_help()
        )
    try:
        wall = datetime.fromisoformat(f"{match['date']}T{_two_digit_hour(match['time'])}")
    except ValueError:
        raise TimeInputError.of(
            "%(text)s is not a real date and time; write %(help)s.",
            text=repr(text),
            help=_moment_help(),
        ) from None
    offset, zone_name = match["offset"], words[1] if len(words) == 2 else None
    if offset and zone_name:
        raise TimeInputError.of(
            "%(text)s gives both an offset and a zone; give one of them.", text=repr(text)
        )
    if offset:
        return datetime.fromisoformat(f"{wall.isoformat()}{_iso_offset(offset)}").astimezone(UTC)
    if not zone_name:
        raise TimeInputError.of(
            "%(text)s has no time zone; write %(help)s.", text=repr(text), help=_moment_help()
        )
    return _localize(wall, zone(zone_name), text)


def parse_deadline_change(text: str, current: datetime, now: datetime) -> datetime:
    """The new deadline from what the host typed for `pbp extend`: a duration adds time to
    the `current` deadline (or to `now` if that has passed); an absolute time replaces it."""
    if _DURATION.match(text or ""):
        return max(current, now) + parse_duration(text)
    try:
        return parse_moment(text)
    except TimeInputError:
        if re.match(r"^\s*\d{4}-\d{2}-\d{2}", text or ""):
            raise  # a date and time written wrong: its own message says exactly how
        raise TimeInputError.of(
            "%(text)s is neither %(duration)s nor %(moment)s.",
            text=repr(text),
            duration=_duration_help(),
            moment=_moment_help(),
        ) from None


def _two_digit_hour(clock: str) -> str:
    return clock if len(clock.split(":")[0]) == 2 else f"0{clock}"


def _iso_offset(offset: str) -> str:
    if offset.upper() == "Z":
        return "+00:00"
    return offset if ":" in offset else f"{offset[:3]}:{offset[3:]}"


def _localize(wall: datetime, where: ZoneInfo | timezone, text: str) -> datetime:
    """`wall` read as a clock time in `where`. A time skipped by a daylight-saving change
    does not exist there and is refused; a repeated one means its first occurrence."""
    aware = wall.replace(tzinfo=where, fold=0)
    back = aware.astimezone(UTC).astimezone(where)
    if back.replace(tzinfo=None) != wall:
        raise TimeInputError(
            f"{text!r} does not exist: the clocks skip that hour for daylight "
            "saving; pick another time."
        )
    return aware.astimezone(UTC)


# --------------------------------------------------------------------------- stored moments
# The one codec of moments in storage: `to_text` writes them, `from_text` reads them back.
def to_text(moment: datetime) -> str:
    """ISO 8601 UTC, second precision: how moments are stored."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def from_text(text: str) -> datetime:
    """A stored moment as an aware UTC datetime (`Z` and a missing offset mean UTC, as
    older files wrote them)."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


# --------------------------------------------------------------------------- rendering
def as_utc(moment: datetime | str) -> datetime:
    """An aware UTC datetime from a stored value (ISO text, read by `from_text`, or a
    datetime; naive means UTC)."""
    if isinstance(moment, str):
        return from_text(moment)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def zone_abbreviation(local: datetime) -> str:
    """`CET`, `EDT`, `AEDT`; zones without a letter abbreviation show as `UTC+3`."""
    name = local.tzname() or ""
    if name and name[0] not in "+-":
        return name
    offset = local.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")


def _day(moment: datetime) -> str:
    return f"{moment:%a} {moment.day} {moment:%b}"


def render_moment(moment: datetime | str, zone_name: str | None = None) -> str:
    """A time as a player reads it: in their zone, then in UTC.

    `Sun 1 Dec 2030, 19:00 CET (18:00 UTC)`; when the two dates differ, the UTC part names
    its day too: `Wed 2 Dec 2026, 05:00 AEDT (Tue 1 Dec 18:00 UTC)`; a UTC player reads
    `Sun 1 Dec 2030, 18:00 UTC`.
    """
    utc = as_utc(moment)
    where = zone(zone_name)
    if where is UTC:
        return f"{_day(utc)} {utc.year}, {utc:%H:%M} UTC"
    local = utc.astimezone(where)
    utc_part = f"{utc:%H:%M} UTC" if local.date() == utc.date() else f"{_day(utc)} {utc:%H:%M} UTC"
    return f"{_day(local)} {local.year}, {local:%H:%M} {zone_abbreviation(local)} ({utc_part})"


def render_timestamp(moment: datetime | str) -> str:
    """`2030-01-01 12:00:05 UTC`: when something happened (a mail was received), to the
    second, for receipts and the host's listings. A deadline is never shown this way:
    players read deadlines with `render_moment`, in their zone and in UTC."""
    return (
        as_utc(moment).isoformat(" ", "seconds")[:19] + " UTC"
    )  # strftime costs half as much again


def render_received(moment: datetime | str, zone_name: str | None = None) -> str:
    """When a player's mail was received, for their receipt: to the second in UTC and, for
    a player outside UTC, in their own zone too: `2030-01-01 12:00:05 UTC (13:00:05 CET)`,
    naming the local day when it is another: `(Wed 2 Jan 01:00:05 AEDT)`."""
    utc = as_utc(moment)
    where = zone(zone_name)
    if where is UTC:
        return render_timestamp(utc)
    local = utc.astimezone(where)
    day = f"{_day(local)} " if local.date() != utc.date() else ""
    return f"{render_timestamp(utc)} ({day}{local:%H:%M:%S} {zone_abbreviation(local)})"


def render_remaining(span: timedelta) -> str:
    """`2 days 3 hours`, `45 minutes`, `30 seconds`: how long is left, at most two units."""
    seconds = max(0, int(span.total_seconds()))
    parts = []
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(f"{amount} {unit}{'' if amount == 1 else 's'}")
    return " ".join(parts[:2]) or "0 seconds"


def render_duration_spec(span: timedelta) -> str:
    """The compact form a host types (`1d12h`, `90s` reads back as `1m30s`)."""
    seconds = int(span.total_seconds())
    text = ""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60), ("s", 1)):
        amount, seconds = divmod(seconds, size)
        if amount:
            text += f"{amount}{unit}"
    return text or "0s"
