"""Reading the value of one moderator option (pbp.game.options declares them): the times
before a deadline at which reminders go out (`reminders`), the rhythm and the vote count of
the running tally (`tally_every`, `tally_after_votes`) and the prod rule (`prod_below`).
Each reads the stored text, or raises an error whose message says what the option takes."""

from __future__ import annotations

from datetime import timedelta

from engine.core import parse_on_off
from engine.errors import Value, Wording
from pbp.timezones import TimeInputError, parse_duration

DEFAULT_REMINDERS = "24h,1h"


class OptionValueError(ValueError):
    """A moderator option with a value it does not take; the message says which it takes
    (`wording`: as a Wording, which the desk words in the host's language)."""

    def __init__(self, message: str | Wording) -> None:
        self.wording = message if isinstance(message, Wording) else Wording(message)
        super().__init__(str(self.wording))

    @classmethod
    def of(cls, template: str, **values: Value) -> "OptionValueError":
        return cls(Wording(template, values))


def reminder_offsets(
    setting: str | None, default: str = DEFAULT_REMINDERS
) -> tuple[timedelta, ...]:
    """The times before a deadline at which reminders go out, largest first.

    `setting` is the game's `reminders` option: empty or on (the one on/off vocabulary)
    means `default` (the settings file's value), off switches reminders off, otherwise a
    comma-separated list of durations (`24h,1h`)."""
    text = (setting or "").strip().lower()
    switch = parse_on_off(text) if text else True
    if switch is not None:
        text = default if switch else ""
        if not text or parse_on_off(text) is False:
            return ()
    offsets = set()
    for part in text.split(","):
        try:
            offsets.add(parse_duration(part))
        except TimeInputError:
            raise TimeInputError.of(
                "Reminder times %(setting)s are not a comma-separated list of durations; "
                "write e.g. reminders=24h,1h or reminders=off.",
                setting=repr(setting),
            ) from None
    return tuple(sorted(offsets, reverse=True))


def tally_interval(setting: str | None) -> timedelta | None:
    """The game's `tally_every` option as a duration, or None when it is off."""
    text = (setting or "").strip().lower()
    if not text or parse_on_off(text) is False:
        return None
    try:
        return parse_duration(text)
    except TimeInputError:
        raise TimeInputError.of(
            "Option tally_every takes a duration such as 6h or 30m, or off; not %(setting)s.",
            setting=repr(setting),
        ) from None


def votes_after(setting: str | None) -> int | None:
    """The game's `tally_after_votes` as a number of votes, or None when it is off."""
    text = (setting or "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def prod_rule(setting: str | None) -> tuple[int, timedelta] | None:
    """The game's `prod_below` as (posts, time before the deadline), or None when off."""
    text = (setting or "").strip().lower()
    if not text or parse_on_off(text) is False:
        return None
    posts, at, before = text.partition("@")
    try:
        if at and posts.strip().isdigit() and int(posts) > 0:
            return int(posts), parse_duration(before)
    except TimeInputError:
        pass
    raise OptionValueError(
        "Option prod_below takes posts@time before the deadline, such as 3@12h, or off; "
        f"not {setting!r}."
    )
