"""Reading one setting's value: a choice among words, a number within bounds, a time zone;
each refuses a bad value with one sentence naming the setting and how to fix it."""

from __future__ import annotations

import configparser
from typing import Callable, TypeVar

from pbp.errors import UserError

Number = TypeVar("Number", int, float)  # a number setting's kind


def choice(
    section: configparser.SectionProxy, key: str, default: str, allowed: tuple[str, ...]
) -> str:
    value = section.get(key, default).strip().lower()
    if value not in allowed:
        raise UserError(
            f"Setting [{section.name}] {key} = {value!r} is not one of {', '.join(allowed)}; fix"
            " the settings file."
        )
    return value


def zone(section: configparser.SectionProxy, key: str) -> str:
    """An IANA time zone setting ("" is UTC)."""
    from zoneinfo import ZoneInfo

    value = section.get(key, "").strip()
    try:
        ZoneInfo(value or "UTC")
    except (KeyError, ValueError, OSError):  # ZoneInfoNotFoundError is a KeyError
        raise UserError(
            f"Setting [{section.name}] {key} = {value!r} is not a time zone; write an IANA "
            "name like Europe/Berlin, or leave it empty for UTC."
        ) from None
    return value


def language(section: configparser.SectionProxy, key: str) -> str:
    """A language code setting (`de`; empty is English). Whether pbp writes in it is asked
    of the catalogs when the moderator is made (pbp.moderator), a layer above settings."""
    value = section.get(key, "").strip().lower() or "en"
    if not value.replace("_", "").isalpha() or len(value) > 8:
        raise UserError(
            f"Setting [{section.name}] {key} = {value!r} is not a language code; write one "
            "like de or es, or leave it empty for English."
        )
    return value


def number(
    section: configparser.SectionProxy,
    key: str,
    default: Number,
    kind: Callable[[str], Number],
    least: float = 1,
    most: float | None = None,
) -> Number:
    """A number setting, at least `least` (and at most `most`): a poll interval of 0 or a
    size limit of -1 would make pbp spin or refuse every mail."""
    raw = section.get(key, str(default)).strip()
    try:
        value = kind(raw)
    except ValueError:
        raise UserError(
            f"Setting [{section.name}] {key} = {raw!r} is not a number; fix the settings file."
        ) from None
    if value < least or (most is not None and value > most):
        bounds = f"from {least:g} to {most:g}" if most is not None else f"at least {least:g}"
        raise UserError(
            f"Setting [{section.name}] {key} = {raw!r} is out of range: it must be {bounds}; "
            "fix the settings file."
        )
    return value
