"""A sign-up names the language its player reads (docs/design.md: Each reader's language):
`JOIN ww3 Alice LANG=de`, or `LANG: de` on a line right after the JOIN line; it answers in
that language, reaches the roster, and a language pbp does not write in is refused in one
sentence, changing nothing."""
from __future__ import annotations

import pytest

from engine.simulation import player_names
from pbp.game.stored import load
from pbp.mail.signup_words import find_signup
from pbp.render.renderer import Renderer
from pbp.signups.details import JoinDetails
from pbp.signups.starting import start_signed_up
from tests.fixtures.languages import german  # noqa: F401  (a fixture)
from tests.signups.test_signup_details import post  # noqa: F401  (a fixture)


@pytest.mark.parametrize("body, found", [
    ("JOIN ww3 Alice LANG=de", "JOIN ww3 Alice LANG=de"),
    ("JOIN ww3 Alice\nTZ: Europe/Berlin\nLanguage: de\nFORUM: al", "JOIN ww3 Alice TZ: Europe/Berlin Language: de FORUM: al"),
])
def test_the_language_comes_on_the_join_line_or_right_after_it(body, found):
    assert find_signup(body, "") == found


def test_join_details_read_the_language():
    details = JoinDetails.parse("Alice TZ=Europe/Berlin LANG=DE FORUM=al k")
    assert (details.name, details.timezone, details.forum_name, details.language) == ("Alice", "Europe/Berlin",
                                                                                      "al k", "de")
    assert JoinDetails.parse("Alice").reads == "en"
    assert "language" not in JoinDetails.parse("Alice").stored()


def test_a_sign_up_in_german_is_answered_in_german_and_reaches_the_roster(post, german, monkeypatch):
    languages: list[str] = []
    render = Renderer.render
    monkeypatch.setattr(Renderer, "render", lambda self, kind, ruleset, **facts: (
        languages.append(self.language), render(self, kind, ruleset, **facts))[1])
    assert post.join("ann@x.example", "JOIN ww3 Ann LANG=de") == "processed"
    assert languages == ["de", "de"]  # the request's answer and the confirmation's
    assert post.record()["entries"][0]["language"] == "de"
    for name in player_names(8)[1:]:
        assert post.join(f"{name.lower()}@x.example", f"JOIN ww3 {name}") == "processed"
    assert "language" not in post.record()["entries"][1]  # English is stored as before: not at all
    game = start_signed_up(post.moderator, "ww3")
    roster = load(post.moderator, game.id).record.roster
    assert roster.of("Ann").language == "de" and roster.of(player_names(8)[1]).language == "en"


def test_a_language_pbp_does_not_write_is_refused(post, german):
    assert post.send("ann@x.example", "JOIN ww3 Ann LANG=klingon") == "rejected"
    assert ("The language 'klingon' is not one pbp writes in: write one of en, de, e.g. JOIN ww3 Ann LANG=de."
            in post.last_reply("ann@x.example"))
    assert post.record()["entries"] == [] and not post.record().get("pending")
