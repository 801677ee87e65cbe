"""The glossary (docs/glossary.md) and the catalogs of the domain `glossary` agree, every
role of every ruleset has a name in each language, and the renderer's role filters word
roles in its own language (docs/design.md: Languages — the glossary)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import engine
from pbp.render.keyword_names import SHELL_NAMES
from pbp.render.languages import languages, locale_folder
from pbp.render.renderer import Renderer

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
COLUMNS = {"de": 1, "es": 2}
_PLURAL = re.compile(r"^(.*) \(pl\. (.*)\)$")


def page_entries() -> dict[str, dict[tuple[str, str], str | tuple[str, str]]]:
    """{language: {(context, English): name or (name, plural)}} from the page's tables,
    each under its `Catalog context:` line; the order keywords' tables have none."""
    entries: dict[str, dict[tuple[str, str], str | tuple[str, str]]] = {
        code: {} for code in COLUMNS
    }
    context = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            context = None
        found = re.match(r"^Catalog context: `(\w+)`\.$", line)
        if found:
            context = found.group(1)
        if context and line.startswith("| ") and not line.startswith(("| English", "| ---")):
            cells = [cell.strip() for cell in line.strip("|").split(" | ")]
            for code, column in COLUMNS.items():
                plural = _PLURAL.match(cells[column])
                entries[code][context, cells[0]] = (
                    (plural.group(1), plural.group(2)) if plural else cells[column]
                )
    return entries


def catalog_entries(code: str) -> dict[tuple[str, str], str | tuple[str, str]]:
    with (locale_folder() / code / "LC_MESSAGES" / "glossary.po").open("rb") as source:
        catalog = read_po(source, locale=code, domain="glossary")
    entries: dict[tuple[str, str], str | tuple[str, str]] = {}
    plurals: dict[str, str] = {}
    for message in catalog:
        if not message.id:
            continue
        assert message.context, f"{message.id!r} has no context"
        if message.pluralizable:
            singular, plural = message.string
            plurals[message.id[0].removeprefix("%(num)d ")] = plural.removeprefix("%(num)d ")
            assert singular.startswith("%(num)d ") and plural.startswith("%(num)d ")
        else:
            entries[message.context, message.id] = message.string
    for (context, english), name in list(entries.items()):
        if english in plurals and context == "role":
            entries[context, english] = (str(name), plurals.pop(english))
    assert not plurals, f"plurals without a name: {sorted(plurals)}"
    return entries


def test_the_languages_with_a_glossary_are_the_ones_pbp_writes():
    assert set(COLUMNS) == set(languages()) - {"en"}


@pytest.mark.parametrize("code", sorted(COLUMNS))
def test_the_glossary_page_and_the_catalog_agree(code):
    page, catalog = page_entries()[code], catalog_entries(code)
    assert page == catalog
    assert all(value for value in catalog.values())


@pytest.mark.parametrize("code", sorted(COLUMNS))
@pytest.mark.parametrize("ruleset", engine.rulesets())
def test_every_role_and_side_of_every_ruleset_has_a_name(code, ruleset):
    card = engine.ruleset(ruleset).card
    renderer = Renderer(language=code)
    role, count, side = (renderer.env.filters[name] for name in ("role", "role_count", "side_name"))
    english = Renderer().env.filters
    named = catalog_entries(code)
    for name, _side, _what in card.roles:
        assert ("role", english["role"](name)) in named, f"{name} has no {code} name"
        assert count(2, name) == f"2 {named['role', english['role'](name)][1]}", (
            f"{name} has no {code} plural"
        )
        assert count(1, name) == f"1 {role(name)}"
    for key, _words in card.side_names:
        assert side(key, ruleset) != english["side_name"](key, ruleset)
    for path, words in card.victory_paths:
        assert renderer.env.filters["victory_path"](path, ruleset) != words


def test_roles_are_labels_in_other_languages_and_english_is_unchanged():
    de, es, en = (Renderer(language=code).env.filters for code in ("de", "es", "en"))
    setup = {"werewolf": 2, "seer": 1, "villager": 5}
    assert en["roles_counted"](setup) == "2 Werewolves, 1 Seer, 5 Villagers"
    assert en["a_role"]("apothecary") == "an Apothecary"
    assert (
        en["side_wins"](["wolves", "werehamster"], "werewolf")
        == "The Wolves and the Werehamster win!"
    )
    assert de["roles_counted"](setup) == "2 Werwölfe, 1 Seher, 5 Dorfbewohner"
    assert es["roles_counted"](setup) == "2 Hombres lobo, 1 Vidente, 5 Aldeanos"
    assert (de["a_role"]("witch"), es["a_role"]("seer")) == ("Hexe", "Vidente")  # no article
    assert (
        de["side_wins"](["wolves", "werehamster"], "werewolf") == "Sieg: Werwölfe und Werhamster!"
    )
    assert es["role"]("WARRIOR") == "Guerrero"


def test_the_order_keywords_on_the_page_are_the_cards_and_the_shells():
    text = GLOSSARY.read_text(encoding="utf-8").split("## Order keywords", 1)[1]
    rows = {
        tuple(cell.strip() for cell in line.strip("|").split(" | "))
        for line in text.splitlines()
        if line.startswith("| ") and not line.startswith(("| English", "| ---"))
    }
    expected = {
        (keyword, SHELL_NAMES["de"][keyword], SHELL_NAMES["es"][keyword])
        for keyword in SHELL_NAMES["de"]
    }
    for ruleset in engine.rulesets():
        names = {
            language: dict(pairs) for language, pairs in engine.ruleset(ruleset).card.keyword_names
        }
        expected |= {
            (keyword, names["de"][keyword], names["es"][keyword]) for keyword in names["de"]
        }
    assert rows == expected


@pytest.mark.parametrize("code", sorted(COLUMNS))
def test_every_phase_is_worded_from_the_glossary(code):
    phases = {
        "werewolf": ("N0", "N1", "N1-witch", "D1-nominate", "D1-runoff", "D1-vote", "over"),
        "infiltration": ("T0-class", "T1-movement", "T1-decision", "over"),
    }
    english, named = Renderer().env.globals, Renderer(language=code).env.globals
    entries = catalog_entries(code)
    for ruleset, ids in phases.items():
        for phase in ids:
            words = english["phase_words"](ruleset, phase)
            parts = [part.rstrip(" 0123456789") for part in words.split(" — ")]
            assert all(("phase", part) in entries for part in parts), words
            assert named["phase_words"](ruleset, phase) == " — ".join(
                str(entries["phase", part]) + words.split(" — ")[index][len(part) :]
                for index, part in enumerate(parts)
            )
    assert named["subject_words"]("werewolf", "D1-vote") == named["phase_words"](
        "werewolf", "D1-vote"
    ).replace(" — ", ", ")
