"""Public posts and the rulesets' event wording in German and Spanish (docs/design.md:
Languages): a phase post, a running count and each ruleset's event descriptions come out
in the reader's language, escaped for the forum as the English ones are."""

from __future__ import annotations

import pytest

from pbp.forum.publishing.dialects import dialect
from pbp.forum.publishing.post_renderer import PostFacts, PostRenderer
from pbp.render.renderer import Renderer

WORDS = {
    "de": {
        "post": "Das Dorf lyncht **Bruno**.",
        "night": "Nacht 2 bricht an.",
        "count": "Bisherige Stimmen",
        "alert": "Zug 3: kein Alarm; in der Anlage ist es ruhig.",
        "trial": "Vor Gericht:",
    },
    "es": {
        "post": "La aldea lincha a **Bruno**.",
        "night": "Cae la noche 2.",
        "count": "Votos hasta ahora",
        "alert": "Turno 3: sin alerta; la instalación está tranquila.",
        "trial": "A juicio:",
    },
}
ENGLISH = ("was lynched", "Votes so far", "falls.", "Nobody died", "On trial:")


def renderers(language: str) -> tuple[Renderer, PostRenderer]:
    mail = Renderer(language=language)
    return mail, PostRenderer(describe=mail.describe, language=language)


def phase_post(language: str, style: str = "markdown") -> str:
    _, posts = renderers(language)
    events = [
        {"kind": "trial", "data": {"day": 1, "defendants": ["Bruno", "Chloé"]}},
        {
            "kind": "votes",
            "data": {"day": 1, "votes": {"Alice": "Bruno", "Chloé": None}, "missing": ["Dan"]},
        },
        {"kind": "lynch", "data": {"day": 1, "player": "Bruno"}},
        {"kind": "night_falls", "data": {"night": 1}},
    ]
    facts = PostFacts(
        game="g1",
        ruleset="werewolf",
        phase="D1-vote",
        public_view={},
        events=events,
        voters=["Alice", "Bruno", "Chloé", "Dan"],
        extra={
            "living": [{"name": "Alice", "handle": "u_alice"}],
            "dead": [{"name": "Bruno", "when": "D1", "flip": None}],
            "next": {"kind": "night", "words": "N1", "deadline": "2030-01-02 12:00 UTC"},
        },
    )
    return posts.render(facts, dialect(style)).text


@pytest.mark.parametrize("language", ["de", "es"])
def test_a_phase_post_is_in_the_forums_language(language):
    text = phase_post(language)
    assert WORDS[language]["post"] in text and WORDS[language]["trial"] in text
    assert not [words for words in ENGLISH if words in text], text


@pytest.mark.parametrize("language", ["de", "es"])
def test_a_translated_post_escapes_names_for_each_dialect(language):
    _, posts = renderers(language)
    facts = PostFacts(
        game="g1",
        ruleset="werewolf",
        phase="D1-vote",
        public_view={},
        events=[{"kind": "lynch", "data": {"day": 1, "player": "*Evil*"}}],
    )
    assert "\\*Evil\\*" in posts.render(facts, dialect("markdown")).text
    assert "[b]*Evil*[/b]" in posts.render(facts, dialect("bbcode")).text


@pytest.mark.parametrize("language", ["de", "es"])
def test_a_running_count_is_in_the_forums_language(language):
    _, posts = renderers(language)
    facts = PostFacts(
        game="g1",
        ruleset="werewolf",
        phase="D1-vote",
        public_view={},
        votes={"Alice": "Bruno"},
        voters=["Alice", "Bruno"],
        extra={"as_of": "12:00 UTC"},
        phase_words=lambda phase: "D1",
    )
    text = posts.render(facts, dialect("markdown"), kind="tally").text
    assert WORDS[language]["count"] in text and "Votes so far" not in text


@pytest.mark.parametrize("language", ["de", "es"])
def test_each_rulesets_events_are_described_in_the_readers_language(language):
    mail, _ = renderers(language)
    assert (
        mail.describe("werewolf", {"kind": "night_falls", "data": {"night": 2}})
        == WORDS[language]["night"]
    )
    assert (
        mail.describe("infiltration", {"kind": "alert", "data": {"turn": 3, "holds": False}})
        == WORDS[language]["alert"]
    )


def test_english_is_the_source_and_unchanged():
    assert "**Bruno** was lynched." in phase_post("en")


@pytest.mark.parametrize("language", ["de", "es"])
def test_translated_event_lines_fit_a_phone_once_the_mail_is_wrapped(language):
    from pbp.mail.wrapping import wrap_body

    mail, _ = renderers(language)
    events = [
        ("werewolf", {"kind": "lovers", "data": {"lover": "Chloé"}}),
        ("werewolf", {"kind": "silenced", "data": {"day": 3}}),
        (
            "infiltration",
            {
                "kind": "arrival",
                "data": {
                    "movement": "locked-out",
                    "destination": "Hangar 2",
                    "turn": 4,
                    "room": "Lab 1",
                    "feature": "WEAPONS LAB",
                    "condition": "hacked",
                    "present": ["Alice", "Bruno"],
                    "code": "",
                    "corpses": [],
                    "locked": True,
                    "alert": True,
                },
            },
        ),
    ]
    body = "".join(f"- {mail.describe(ruleset, event)}\n" for ruleset, event in events)
    assert "Chloé" in body and "Hangar 2" in body and "You " not in body
    assert all(len(line) <= 72 for line in wrap_body(body).splitlines())
