"""When a running vote count is due (game option `tally_every`, docs/design.md: Public
posts): every `tally_every` after a voting phase opens, until its deadline. Pure: the
caller gives the moments; pbp.forum.tallies drafts the counts, pbp.wake_up wakes for them.

Rules chosen where the design is silent:
- The first count comes one interval after the phase opens, never at its opening (the
  phase's own post has just shown the previous count), and none at or after the deadline
  (the resolution's post carries the final count).
- If several counts fell due at once (pbp was down), only the latest is drafted: one
  count of the votes as they stand now, not several identical ones.
- A count is drafted only in a phase where players give public orders (the ruleset
  card's `public_orders`: nominations, votes).
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Mapping

from pbp.timezones import TimeInputError, parse_duration

OPTION = "tally_every"


def tally_interval(setting: str | None) -> timedelta | None:
    """The game's `tally_every` option as a duration, or None when it is off."""
    text = (setting or "").strip().lower()
    if text in ("", "off", "no", "none", "false", "0"):
        return None
    try:
        return parse_duration(text)
    except TimeInputError:
        raise TimeInputError(f"Option tally_every takes a duration such as 6h or 30m, or off; not {setting!r}.") from None


def interval_of(record: Mapping[str, Any]) -> timedelta | None:
    """A stored game's `tally_every` (None: off, or unreadable)."""
    try:
        return tally_interval(record.get("moderator_options", {}).get(OPTION))
    except TimeInputError:
        return None


def due_slot(*, opened: datetime, deadline: datetime, now: datetime, every: timedelta) -> int | None:
    """The number of the latest count due by `now` (1 is one interval after opening), or
    None before the first one and from the deadline on."""
    if now >= deadline or now < opened + every:
        return None
    slot = int((now - opened) / every)
    return slot if opened + slot * every < deadline else None


def next_time(*, opened: datetime, deadline: datetime, now: datetime, every: timedelta) -> datetime | None:
    """When the next count after `now` falls due, or None if none does before the deadline."""
    slot = max(int((now - opened) / every) + 1, 1)
    moment = opened + slot * every
    return moment if moment < deadline else None
