"""The desk's pages in the host's language (docs/design.md: Each reader's language): the
Flask app's Jinja environment translates with `[pbp] host_language`'s catalogs, and shows
times in that language; an English host's desk is as before."""

from __future__ import annotations

from pbp.settings import Settings
from pbp.web.app import host_time, make_app
from tests.fixtures.languages import german  # noqa: F401  (a fixture)

MESSAGE = (
    '{{ _("From now on your mail from this game is written in %(language)s.", language="x") }}'
)


def test_the_desk_speaks_the_host_language(tmp_path, german):
    app = make_app(
        Settings(data=tmp_path / "data", host_language="de", host_timezone="Europe/Berlin")
    )
    assert (
        app.jinja_env.from_string(MESSAGE).render()
        == "Ab jetzt ist deine Post aus diesem Spiel in x geschrieben."
    )
    with app.app_context():
        assert host_time("2030-12-01T18:00:00+00:00") == "So., 1. Dez. 2030, 19:00 CET (18:00 UTC)"


def test_an_english_host_desk_is_as_before(tmp_path):
    app = make_app(Settings(data=tmp_path / "data", host_timezone="Europe/Berlin"))
    assert (
        app.jinja_env.from_string(MESSAGE).render()
        == "From now on your mail from this game is written in x."
    )
    with app.app_context():
        assert host_time("2030-12-01T18:00:00+00:00") == "Sun 1 Dec 2030, 19:00 CET (18:00 UTC)"
