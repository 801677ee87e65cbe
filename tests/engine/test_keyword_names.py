"""Each ruleset's card names every order keyword of its grammar in each language pbp
writes, and no name collides with another keyword, another name or a player's name, in
any language (docs/design.md: Languages — order keywords)."""

from __future__ import annotations

import pytest

import engine
from pbp.render.keyword_names import SHELL_NAMES, names_by_language
from pbp.render.languages import languages

RULESETS = engine.rulesets()
OTHER_LANGUAGES = tuple(code for code in languages() if code != "en")


def grammar_keywords(card) -> set[str]:
    """The first word of every order of the card's table, the public orders and the
    words that take them back."""
    firsts = {
        word
        for line in card.orders
        for word in line.order.replace(" / ", " ").split()
        if word.isupper() and word.isalpha()
    }
    return firsts | set(card.public_orders) | {word for word, _ in card.take_back_words}


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_keyword_of_the_grammar_has_a_name(ruleset, language):
    card = engine.ruleset(ruleset).card
    names = names_by_language(card)[language]
    starts = {line.order.split()[0] for line in card.orders} | {
        word for word, _ in card.take_back_words
    }
    assert starts <= set(names), f"no {language} name for {sorted(starts - set(names))}"
    assert all(name.isascii() and name.isalpha() and name.isupper() for name in names.values())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_name_collides_with_a_keyword_or_another_name_in_any_language(ruleset):
    card = engine.ruleset(ruleset).card
    english = (
        grammar_keywords(card)
        | set(
            card.reserved_words
            - {name for names in names_by_language(card).values() for name in names.values()}
        )
        | set(SHELL_NAMES["de"])
    )
    meaning: dict[str, str] = {}
    for language, names in names_by_language(card).items():
        for keyword, name in names.items():
            if name == keyword:
                continue
            assert name not in english, f"{language} {name} is already a word of the grammar"
            assert meaning.setdefault(name, keyword) == keyword, (
                f"{name} names both {meaning[name]} and {keyword}"
            )


def test_one_keyword_has_one_name_per_language_across_rulesets():
    """A receipt words its lines without their ruleset at hand (pbp.render.keyword_names)."""
    for language in OTHER_LANGUAGES:
        seen: dict[str, str] = {}
        for ruleset in RULESETS:
            for keyword, name in names_by_language(engine.ruleset(ruleset).card)[language].items():
                assert seen.setdefault(keyword, name) == name


@pytest.mark.parametrize("name", ["Abstimmen", "VOTAR", "Toeten", "Angreifen", "Quedarse"])
def test_a_keyword_name_in_any_language_is_no_players_name(name):
    assert engine.name_problem(name) is not None
