"""Dates, times and spans in the reader's language (docs/design.md: Each reader's
language): English byte for byte as before, German and Spanish from Babel's CLDR data."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbp import timezones
from pbp.render import moments
from pbp.render.renderer import Renderer
from tests.fixtures.languages import german  # noqa: F401  (a fixture)

MOMENTS = ["2030-12-01T18:00:00+00:00", "2026-12-01T18:00:00+00:00", "2030-07-04T23:30:00+00:00"]
ZONES = ["", "UTC", "Europe/Berlin", "Australia/Sydney", "America/New_York", "Asia/Kolkata"]


@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize("moment", MOMENTS)
def test_english_is_what_it_always_was(moment, zone):
    assert moments.render_moment(moment, zone) == timezones.render_moment(moment, zone)
    assert moments.render_received(moment, zone) == timezones.render_received(moment, zone)


@pytest.mark.parametrize("seconds", [0, 1, 59, 60, 61, 3600, 3661, 86400, 90061, 200000])
def test_english_spans_are_what_they_always_were(seconds):
    assert moments.render_remaining(timedelta(seconds=seconds)) == timezones.render_remaining(
        timedelta(seconds=seconds)
    )


def test_a_deadline_in_german_and_spanish_names_day_and_month_in_the_language():
    moment = "2030-12-01T18:00:00+00:00"
    assert (
        moments.render_moment(moment, "Europe/Berlin", "de")
        == "So., 1. Dez. 2030, 19:00 CET (18:00 UTC)"
    )
    assert moments.render_moment(moment, "", "de") == "So., 1. Dez. 2030, 18:00 UTC"
    assert (
        moments.render_moment(moment, "Europe/Madrid", "es")
        == "dom, 1 dic 2030, 19:00 CET (18:00 UTC)"
    )
    # Another day in UTC: the UTC part names it too, as in English.
    late = moments.render_moment("2026-12-01T18:00:00+00:00", "Australia/Sydney", "de")
    assert late == "Mi., 2. Dez. 2026, 05:00 AEDT (Di., 1. Dez., 18:00 UTC)"


def test_spans_take_each_language_plural_forms():
    assert moments.render_remaining(timedelta(days=1, hours=2), "de") == "1 Tag 2 Stunden"
    assert moments.render_remaining(timedelta(days=2, hours=1), "de") == "2 Tage 1 Stunde"
    assert moments.render_remaining(timedelta(minutes=45), "es") == "45 minutos"
    assert moments.render_remaining(timedelta(minutes=1), "es") == "1 minuto"


def test_received_keeps_its_utc_stamp_and_words_the_local_time_in_the_language():
    moment = datetime(2030, 1, 1, 23, 30, 5, tzinfo=timezone.utc)
    assert (
        moments.render_received(moment, "Australia/Sydney", "de")
        == "2030-01-01 23:30:05 UTC (Mi., 2. Jan., 10:30:05 AEDT)"
    )
    assert moments.render_received(moment, "", "de") == "2030-01-01 23:30:05 UTC"


def test_a_language_is_named_in_the_reader_language():
    assert moments.language_name("de") == "German (de)"
    assert moments.language_name("de", "de") == "Deutsch (de)"
    assert moments.language_name("es", "es") == "español (es)"


def test_templates_write_times_in_their_renderer_language(german):
    template = "{{ when | moment('Europe/Berlin') }} / {{ left | remaining }}"
    facts = {"when": "2030-12-01T18:00:00+00:00", "left": timedelta(hours=3)}
    assert (
        Renderer(language="de").env.from_string(template).render(facts)
        == "So., 1. Dez. 2030, 19:00 CET (18:00 UTC) / 3 Stunden"
    )
    assert (
        Renderer().env.from_string(template).render(facts)
        == "Sun 1 Dec 2030, 19:00 CET (18:00 UTC) / 3 hours"
    )
