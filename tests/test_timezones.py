"""Durations and absolute times the host types; deadlines as players read them."""

from datetime import datetime, timedelta, timezone

import pytest

from pbp.timezones import (
    TimeInputError,
    as_utc,
    from_text,
    parse_deadline_change,
    parse_duration,
    parse_moment,
    render_duration_spec,
    render_moment,
    render_remaining,
    to_text,
    zone_problem,
)

UTC = timezone.utc


@pytest.mark.parametrize(
    "text, seconds",
    [
        ("90s", 90),
        ("10m", 600),
        ("2h", 7200),
        ("1d12h", 129600),
        ("1w", 604800),
        ("1h30m", 5400),
        ("2H", 7200),
        (" 1d 2h ", 93600),
    ],
)
def test_durations(text, seconds):
    assert parse_duration(text) == timedelta(seconds=seconds)


@pytest.mark.parametrize("text", ["", "2", "h", "2x", "1.5h", "-2h", "0m", "two hours"])
def test_bad_durations_say_how_to_write_one(text):
    with pytest.raises(TimeInputError, match="like 90s, 10m, 2h or 1d12h|no time at all"):
        parse_duration(text)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("2026-12-01 18:00 Europe/Berlin", datetime(2026, 12, 1, 17, 0, tzinfo=UTC)),
        ("2026-07-01 18:00 Europe/Berlin", datetime(2026, 7, 1, 16, 0, tzinfo=UTC)),
        ("2026-12-01T18:00-05:00", datetime(2026, 12, 1, 23, 0, tzinfo=UTC)),
        ("2026-12-01T18:00Z", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("2026-12-01 18:00 UTC", datetime(2026, 12, 1, 18, 0, tzinfo=UTC)),
        ("2026-12-01 9:30 America/New_York", datetime(2026, 12, 1, 14, 30, tzinfo=UTC)),
        ("2026-12-01 18:00:30 Australia/Sydney", datetime(2026, 12, 1, 7, 0, 30, tzinfo=UTC)),
        ("2026-12-01T18:00+0530", datetime(2026, 12, 1, 12, 30, tzinfo=UTC)),
    ],
)
def test_absolute_times_with_a_zone(text, expected):
    moment = parse_moment(text)
    assert moment == expected and moment.tzinfo is UTC


@pytest.mark.parametrize(
    "text, message",
    [
        ("2026-12-01 18:00", "has no time zone"),
        ("2026-12-01 18:00 Mars/Olympus", "Unknown time zone 'Mars/Olympus'"),
        ("2026-02-30 18:00 UTC", "not a real date"),
        ("tomorrow", "is not a time"),
        ("2026-12-01T18:00+01:00 Europe/Berlin", "both an offset and a zone"),
        # 02:30 on 2026-03-29 is skipped in Berlin (clocks jump from 02:00 to 03:00)
        ("2026-03-29 02:30 Europe/Berlin", "does not exist"),
    ],
)
def test_bad_times_are_refused_with_the_reason(text, message):
    with pytest.raises(TimeInputError, match=message):
        parse_moment(text)


def test_a_repeated_hour_means_its_first_occurrence():
    # 01:30 happens twice in New York on 2026-11-01; the first time is still EDT (UTC-4)
    assert parse_moment("2026-11-01 01:30 America/New_York") == datetime(
        2026, 11, 1, 5, 30, tzinfo=UTC
    )


def test_extend_by_a_duration_or_to_an_absolute_time():
    deadline = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    before = deadline - timedelta(hours=5)
    assert parse_deadline_change("2h", deadline, before) == deadline + timedelta(hours=2)
    # an extension after the deadline has passed counts from now
    after = deadline + timedelta(hours=1)
    assert parse_deadline_change("30m", deadline, after) == after + timedelta(minutes=30)
    assert parse_deadline_change("2026-12-02 09:00 Europe/London", deadline, before) == datetime(
        2026, 12, 2, 9, 0, tzinfo=UTC
    )
    with pytest.raises(TimeInputError, match="neither a duration"):
        parse_deadline_change("soon", deadline, before)


def test_rendered_in_the_players_zone_and_in_utc():
    moment = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
    assert render_moment(moment, "Europe/Berlin") == "Tue 1 Dec 2026, 19:00 CET (18:00 UTC)"
    assert render_moment(moment, "America/New_York") == "Tue 1 Dec 2026, 13:00 EST (18:00 UTC)"
    assert (
        render_moment(moment, "Australia/Sydney")
        == "Wed 2 Dec 2026, 05:00 AEDT (Tue 1 Dec 18:00 UTC)"
    )
    assert render_moment(moment, "") == "Tue 1 Dec 2026, 18:00 UTC"
    assert render_moment(moment, "UTC") == "Tue 1 Dec 2026, 18:00 UTC"
    assert (
        render_moment("2026-12-01T18:00:00+00:00", "Asia/Kolkata")
        == "Tue 1 Dec 2026, 23:30 IST (18:00 UTC)"
    )
    # a zone without a letter abbreviation shows its offset
    assert render_moment(moment, "America/Sao_Paulo") == "Tue 1 Dec 2026, 15:00 UTC-3 (18:00 UTC)"


def test_daylight_saving_change_between_two_phases():
    """Two deadlines at the same UTC hour a day apart around each zone's change: the local
    clock time moves by an hour and the abbreviation changes; the UTC time does not."""
    new_york = [datetime(2026, 10, 31, 16, 0, tzinfo=UTC), datetime(2026, 11, 2, 16, 0, tzinfo=UTC)]
    assert [render_moment(d, "America/New_York") for d in new_york] == [
        "Sat 31 Oct 2026, 12:00 EDT (16:00 UTC)",
        "Mon 2 Nov 2026, 11:00 EST (16:00 UTC)",
    ]
    london = [datetime(2026, 10, 24, 18, 0, tzinfo=UTC), datetime(2026, 10, 26, 18, 0, tzinfo=UTC)]
    assert [render_moment(d, "Europe/London") for d in london] == [
        "Sat 24 Oct 2026, 19:00 BST (18:00 UTC)",
        "Mon 26 Oct 2026, 18:00 GMT (18:00 UTC)",
    ]
    sydney = [datetime(2026, 10, 3, 8, 0, tzinfo=UTC), datetime(2026, 10, 5, 8, 0, tzinfo=UTC)]
    assert [render_moment(d, "Australia/Sydney") for d in sydney] == [
        "Sat 3 Oct 2026, 18:00 AEST (08:00 UTC)",
        "Mon 5 Oct 2026, 19:00 AEDT (08:00 UTC)",
    ]


def test_zone_problems_for_the_roster():
    assert zone_problem("Europe/Berlin") is None
    assert zone_problem("") is None
    assert "Unknown time zone" in zone_problem("Berlin")


def test_stored_text_and_naive_times_read_as_utc():
    assert as_utc("2026-12-01T18:00:00Z") == datetime(2026, 12, 1, 18, tzinfo=UTC)
    assert as_utc(datetime(2026, 12, 1, 18)) == datetime(2026, 12, 1, 18, tzinfo=UTC)


def test_stored_moments_have_one_codec_that_round_trips():
    """pbp.timezones owns the text of stored moments (docs/design.md: One copy of each
    mechanism): UTC, to the second, read back as the same aware moment."""
    berlin = datetime(2026, 12, 1, 19, 0, 30, 999, tzinfo=timezone(timedelta(hours=1)))
    assert to_text(berlin) == "2026-12-01T18:00:30+00:00"
    assert from_text(to_text(berlin)) == berlin.replace(microsecond=0)
    assert (
        from_text("2026-12-01T18:00:00Z")
        == from_text("2026-12-01T18:00:00")
        == as_utc("2026-12-01T18:00:00")
    )


def test_only_the_codec_reads_or_writes_a_stored_moment():
    """No module of pbp but pbp/timezones.py parses ISO text or formats it to seconds;
    Discourse's own timestamps, which pbp does not store, are read by pbp/forum/discourse.py
    and written by the local Discourse (pbp/demo/discourse_server.py)."""
    import ast
    from pathlib import Path

    shell = Path(__file__).resolve().parents[1] / "pbp"
    allowed = {"timezones.py", "forum/discourse.py", "demo/discourse_server.py"}
    places = [
        f"{path.relative_to(shell)}:{node.lineno}"
        for path in sorted(shell.rglob("*.py"))
        if path.relative_to(shell).as_posix() not in allowed
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and (
            node.func.attr == "fromisoformat"
            or (node.func.attr == "isoformat" and any(k.arg == "timespec" for k in node.keywords))
        )
    ]
    assert places == []


def test_remaining_time_and_compact_durations():
    assert render_remaining(timedelta(days=2, hours=3, minutes=4)) == "2 days 3 hours"
    assert render_remaining(timedelta(minutes=1)) == "1 minute"
    assert render_remaining(timedelta(seconds=-5)) == "0 seconds"
    assert render_duration_spec(timedelta(seconds=90)) == "1m30s"
    assert render_duration_spec(parse_duration("1d12h")) == "1d12h"
