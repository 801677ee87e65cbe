"""Mail in the reader's language (docs/design.md: Languages, Mail in every language): the
mails of a scripted demo game, rendered again by a German and a Spanish renderer, keep no
English sentence of the "mail" catalog, and their hand-laid lines stay within 72 columns."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from pbp.demo import play_demo
from pbp.mail.wrapping import WIDTH, wrap_body
from pbp.release import templates_folder
from pbp.render.renderer import Renderer
from pbp.render.verdicts import Accepted, Refused
from tests.golden.transcript import FROZEN

LANGUAGES = ("de", "es")
KINDS = ("welcome", "receipt", "report", "help")
_PLACEHOLDER = re.compile(r"%\(\w+\)s")


def english_sentences() -> list[str]:
    """Every line of a message of the mail catalog that stands on its own in a mail: the
    pieces between placeholders, long enough to be a sentence's worth of English."""
    with (templates_folder() / "locale" / "mail.pot").open("rb") as source:
        catalog = read_po(source)
    pieces = set()
    for message in catalog:
        for text in [message.id] if isinstance(message.id, str) else message.id:
            for line in text.split("\n"):
                pieces.update(p.strip().replace("%%", "%") for p in _PLACEHOLDER.split(line))
    return sorted(piece for piece in pieces if len(piece) >= 24)


@pytest.fixture(scope="module")
def demo_mails() -> list[tuple[str, str, dict[str, Any]]]:
    """(kind, ruleset, context) of each mail the demo games of both rulesets render."""
    seen: list[tuple[str, str, dict[str, Any]]] = []
    english = Renderer.render

    def recording(self: Renderer, kind: str, ruleset: str, **context: Any) -> Any:
        seen.append((kind, ruleset, context))
        return english(self, kind, ruleset, **context)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Renderer, "render", recording)
        for ruleset in ("werewolf", "infiltration"):
            with tempfile.TemporaryDirectory(prefix="pbp-languages-") as folder:
                play_demo(
                    ruleset,
                    seed="golden",
                    data=Path(folder) / "data",
                    say=lambda line: None,
                    clock=lambda: FROZEN,
                    stop_after=2,
                )
    return seen


def assert_translated(english: str, translated: str, sentences: list[str]) -> None:
    left = [s for s in sentences if s in translated and s in english]
    assert not left, f"English left in the translation: {left[:5]}"
    # As sent: a block's own lines are never wrapped, so a translated form line must fit.
    sent = wrap_body(translated).split("\n")
    assert all(len(line) <= WIDTH for line in sent), [line for line in sent if len(line) > WIDTH]
    # A hand-laid table cell or paragraph is laid out again in each language: none of its
    # indented lines runs past 72 columns before the sending wrap either.
    assert not [
        line
        for line in translated.split("\n")
        if line.startswith("  ") and len(line) > WIDTH and line not in english
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_demo_games_mails_are_wholly_in_the_readers_language(demo_mails, language):
    sentences = english_sentences()
    renderers = {"en": Renderer(), language: Renderer(language=language)}
    checked = set()
    for kind, ruleset, context in demo_mails:
        if kind not in KINDS:
            continue
        english = renderers["en"].render(kind, ruleset, **context)
        translated = renderers[language].render(kind, ruleset, **context)
        assert translated.subject != english.subject
        assert_translated(english.body, translated.body, sentences)
        checked.add((kind, ruleset))
    assert {
        (kind, ruleset)
        for kind in ("welcome", "report")
        for ruleset in ("werewolf", "infiltration")
    } <= checked


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refusal_a_help_and_a_signup_answer_are_in_the_readers_language(language):
    sentences = english_sentences()
    game = {"id": "ww7", "ruleset": "werewolf"}
    joined = Accepted(
        "joined",
        game_id="ww7",
        name="Alice",
        place=3,
        players_min=8,
        players_max=8,
        timezone="",
        forum_name="",
        closes="Mon 12 Jan 18:00 UTC",
        started=False,
    )
    for kind, context in (
        ("signup", {"game": game, "name": "Alice", "code": "", "answer": joined}),
        (
            "signup",
            {
                "game": game,
                "name": "Alice",
                "code": "K7Q2",
                "answer": Accepted(
                    "join_requested",
                    game_id="ww7",
                    ruleset="werewolf",
                    name="Alice",
                    timezone="",
                    forum_name="",
                    closes="Mon 12 Jan 18:00 UTC",
                    started=False,
                ),
            },
        ),
        (
            "help",
            {
                "game": game,
                "greeting": "Alice",
                "note": None,
                "form": None,
                "token": "t0k3n",
                "options": {"spectators": "dead"},
            },
        ),
    ):
        english = Renderer().render(kind, "werewolf", **context)
        translated = Renderer(language=language).render(kind, "werewolf", **context)
        assert_translated(english.body, translated.body, sentences)
    help_context = {
        "greeting": "Alice",
        "note": None,
        "form": None,
        "token": "t0k3n",
        "options": {"spectators": "all", "reds": 2},
        "npcs": {"names": ["Otacon"], "explained": ["renegade", "neutral"]},
    }
    english = Renderer().render(
        "help", "infiltration", game={"id": "inf1", "ruleset": "infiltration"}, **help_context
    )
    translated = Renderer(language=language).render(
        "help", "infiltration", game={"id": "inf1", "ruleset": "infiltration"}, **help_context
    )
    assert_translated(english.body, translated.body, sentences)
    refusal = Refused("no_token", block_game="ww1", block_phase="N1")
    english, translated = Renderer().word(refusal), Renderer(language=language).word(refusal)
    assert translated != english and "ww1 N1" in translated
    assert_translated(english, translated, sentences)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_mail_catalog_translates_every_message_in_each_plural_form(language):
    folder = templates_folder() / "locale"
    with (folder / "mail.pot").open("rb") as source:
        wanted = {
            message.id if isinstance(message.id, str) else message.id[0]
            for message in read_po(source)
            if message.id
        }
    with (folder / language / "LC_MESSAGES" / "mail.po").open("rb") as source:
        catalog = read_po(source, locale=language)
    done = {}
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert not message.fuzzy and all(strings), message.id
        assert not isinstance(message.id, tuple) or len(strings) == catalog.num_plurals, message.id
        done[message.id if isinstance(message.id, str) else message.id[0]] = strings
    assert wanted == set(done)
    for msgid, strings in done.items():
        placeholders = set(_PLACEHOLDER.findall(msgid))
        assert all(
            placeholders <= set(_PLACEHOLDER.findall(text)) | {"%(count)s"} for text in strings
        ), msgid
