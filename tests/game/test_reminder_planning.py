"""Who is due a reminder, and when (pure planning; the mail tests are elsewhere)."""

from datetime import datetime, timedelta, timezone

import pytest

from pbp.game.notifying.reminders import (
    due_reminders,
    reminder_times,
    reminder_key,
    reminder_offsets,
)
from pbp.timezones import TimeInputError

OPENED = datetime(2026, 12, 1, 0, 0, tzinfo=timezone.utc)
DEADLINE = OPENED + timedelta(days=2)
OFFSETS = reminder_offsets("24h,1h")


def plan(now, with_orders=(), sent=(), paused=False, offsets=OFFSETS, opened=OPENED):
    return due_reminders(
        game="g1",
        phase="T1-movement",
        opened_at=opened,
        deadline=DEADLINE,
        now=now,
        offsets=offsets,
        actors=("Alice", "Bruno", "Chloe"),
        players_with_orders=with_orders,
        paused=paused,
        already_sent=sent,
    )


def test_offsets_from_the_option():
    assert reminder_offsets("24h,1h") == (timedelta(hours=24), timedelta(hours=1))
    assert reminder_offsets("1h, 24h, 1h") == (timedelta(hours=24), timedelta(hours=1))
    assert reminder_offsets(None) == (timedelta(hours=24), timedelta(hours=1))
    assert reminder_offsets("on", default="30m") == (timedelta(minutes=30),)
    assert reminder_offsets("off") == ()
    assert reminder_offsets("none") == ()
    with pytest.raises(TimeInputError, match="reminders=24h,1h or reminders=off"):
        reminder_offsets("daily")


def test_nothing_due_before_the_first_reminder_time():
    assert plan(DEADLINE - timedelta(hours=25)) == []


def test_only_players_without_orders_are_reminded():
    due = plan(DEADLINE - timedelta(hours=23), with_orders={"Bruno"})
    assert [r.player for r in due] == ["Alice", "Chloe"]
    assert {r.before_deadline for r in due} == {timedelta(hours=24)}
    assert due[0].key == "reminder/g1/T1-movement/Alice/1d"


def test_never_twice_for_the_same_time():
    first = plan(DEADLINE - timedelta(hours=23))
    again = plan(DEADLINE - timedelta(hours=22), sent={r.key for r in first})
    assert again == []


def test_second_reminder_time_gives_a_new_key():
    sent = {r.key for r in plan(DEADLINE - timedelta(hours=23))}
    second = plan(DEADLINE - timedelta(minutes=30), sent=sent)
    assert [r.key for r in second] == [
        reminder_key("g1", "T1-movement", p, timedelta(hours=1))
        for p in ("Alice", "Bruno", "Chloe")
    ]


def test_missed_times_give_only_the_latest_reminder():
    due = plan(DEADLINE - timedelta(minutes=10))
    assert {r.before_deadline for r in due} == {timedelta(hours=1)} and len(due) == 3


def test_none_after_the_deadline_while_paused_or_switched_off():
    assert plan(DEADLINE) == []
    assert plan(DEADLINE - timedelta(minutes=10), paused=True) == []
    assert plan(DEADLINE - timedelta(minutes=10), offsets=reminder_offsets("off")) == []


def test_a_reminder_time_before_the_phase_opened_is_skipped():
    opened = DEADLINE - timedelta(hours=12)
    due = plan(opened + timedelta(minutes=1), opened=opened)
    assert due == []
    assert plan(DEADLINE - timedelta(minutes=59), opened=opened)[0].before_deadline == timedelta(
        hours=1
    )


def test_reminder_times_for_the_wake_up():
    assert reminder_times(opened_at=OPENED, deadline=DEADLINE, offsets=OFFSETS) == [
        DEADLINE - timedelta(hours=24),
        DEADLINE - timedelta(hours=1),
    ]
    late_opening = DEADLINE - timedelta(hours=12)  # a 24h reminder would come with the form itself
    assert reminder_times(opened_at=late_opening, deadline=DEADLINE, offsets=OFFSETS) == [
        DEADLINE - timedelta(hours=1)
    ]
