"""One role has one name everywhere (docs/design.md: Languages — one name everywhere): in
every catalog domain of every language, a message whose English names a role, class, team
or side of the glossary says the glossary's name for it in the translation. The names come
from the `glossary` catalogs (contexts role, side, team), so the test follows them, and the
domain files are those found, so a catalog added later is checked as soon as it lands."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pbp.render.languages import DOMAINS, locale_folder
from pbp.render.renderer import Renderer

CONTEXTS = ("role", "side", "team")
_COUNT = re.compile(r"^%\(num\)d ")
# A German noun keeps its name with a declension ending: "des Werwolfs", "den Werwölfen".
_GERMAN_ENDINGS = "(?:e|en|er|es|n|s|ns|ens)?"

# (language, msgid, English name) where a message names a role in a way the glossary
# cannot, each with the reason.
ALLOWED: dict[tuple[str, str, str], str] = {}


@dataclass
class Name:
    """One thing the glossary names: its English forms and the translation's forms."""

    english: set[str] = field(default_factory=set)
    translated: set[str] = field(default_factory=set)


def glossary_names(language: str) -> list[Name]:
    """The glossary's roles, classes, teams and sides in `language`, singular and plural; a
    side ("the Greens") and a team ("Green") naming the same thing are one name."""
    with (locale_folder() / language / "LC_MESSAGES" / "glossary.po").open("rb") as source:
        catalog = read_po(source, locale=language)
    names: list[Name] = []
    for message in catalog:
        if message.context not in CONTEXTS or not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        english = {_COUNT.sub("", text).removeprefix("the ") for text in ids}
        name = Name(english, {_COUNT.sub("", text) for text in strings if text})
        if message.context == "side":
            # "the Greens" is the Green team's side: its English also reads "Green".
            name.english |= {text[:-1] for text in name.english if text.endswith("s")}
        names.append(name)
    merged: list[Name] = []
    for name in names:
        for other in merged:
            if other.english & name.english:
                other.english |= name.english
                other.translated |= name.translated
                break
        else:
            merged.append(name)
    return merged


def english_forms(name: Name, english: str) -> list[str]:
    """The forms of `name` that `english` says, as capitalised, a team's plural ("NPCs")
    included."""
    return sorted(form for form in name.english if re.search(rf"\b{re.escape(form)}s?\b", english))


def named_in_translation(name: Name, translated: str, language: str) -> bool:
    ending = _GERMAN_ENDINGS if language == "de" else ""
    return any(
        re.search(rf"\b{re.escape(form)}{ending}\b", translated, re.IGNORECASE)
        for form in name.translated
    )


def domain_catalogs() -> list[tuple[str, Path]]:
    """(language, catalog) for each language's catalog of each domain that exists."""
    found = []
    for folder in sorted(locale_folder().iterdir()):
        for domain in DOMAINS:
            catalog = folder / "LC_MESSAGES" / f"{domain}.po"
            if catalog.is_file():
                found.append((folder.name, catalog))
    return found


def misnamed(language: str, catalog: Path) -> list[str]:
    """Each message of `catalog` that names a glossary thing in English but not in the
    translation, as "msgid: English names → wanted names"."""
    names = glossary_names(language)
    with catalog.open("rb") as source:
        messages = read_po(source, locale=language)
    wrong = []
    for message in messages:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        english = "\n".join(ids)
        for name in names:
            shown = english_forms(name, english)
            if not shown:
                continue
            if all((language, ids[0], form) in ALLOWED for form in shown):
                continue
            for text in strings:
                if text and not named_in_translation(name, text, language):
                    wrong.append(
                        f"{ids[0][:60]!r}: {shown} → {sorted(name.translated)} in {text[:80]!r}"
                    )
    return wrong


def test_there_are_catalogs_to_check():
    assert {language for language, _ in domain_catalogs()} >= {"de", "es"}


@pytest.mark.parametrize(
    ("language", "catalog"),
    domain_catalogs(),
    ids=[f"{language}-{path.stem}" for language, path in domain_catalogs()],
)
def test_each_message_names_the_glossarys_roles_teams_and_sides(language, catalog):
    assert misnamed(language, catalog) == []


def test_a_name_the_glossary_does_not_give_is_caught():
    names = glossary_names("de")
    wench = next(name for name in names if "Wench" in name.english)
    assert named_in_translation(wench, "Die Schankmägde wachen.", "de")
    assert not named_in_translation(wench, "Die Dirne besucht Alice.", "de")
    wolves = next(name for name in names if "Werewolf" in name.english)
    assert named_in_translation(wolves, "ein Opfer der Werwölfen", "de")
    green = next(name for name in glossary_names("es") if "Green" in name.english)
    assert {"Greens", "Green"} <= green.english and {"Verde", "Verdes"} <= green.translated


def test_the_allow_list_names_only_messages_that_exist():
    ids = set()
    for language, catalog in domain_catalogs():
        with catalog.open("rb") as source:
            ids |= {
                (language, message.id if isinstance(message.id, str) else message.id[0])
                for message in read_po(source)
                if message.id
            }
    assert {(language, msgid) for language, msgid, _ in ALLOWED} <= ids


def test_a_catalog_with_another_name_for_a_role_fails(tmp_path):
    catalog = tmp_path / "mail.po"
    catalog.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "A Wench who sends no VISIT visits nobody."\n'
        'msgstr "Eine Dirne, die kein VISIT schickt, besucht niemanden."\n\n'
        'msgid "Reds are always Warriors."\n'
        'msgstr "Rote sind immer Krieger."\n',
        encoding="utf-8",
    )
    wrong = misnamed("de", catalog)
    assert len(wrong) == 1 and "Dirne" in wrong[0] and "Schankmagd" in wrong[0]


@pytest.mark.parametrize(
    ("language", "name"), [("en", "Sneaker"), ("de", "Schleicher"), ("es", "Sigiloso")]
)
def test_the_default_class_a_help_mail_names_is_the_glossarys(language, name):
    options = {"spectators": "all", "reds": 2, "default_class": "sneaker"}
    renderer = Renderer() if language == "en" else Renderer(language=language)
    body = renderer.render(
        "help",
        "infiltration",
        game={"id": "inf1", "ruleset": "infiltration"},
        greeting="Alice",
        note=None,
        form=None,
        token="t0k3n",
        options=options,
        npcs={"names": [], "explained": []},
    ).body
    assert f" {name}." in body and (language == "en" or "Sneaker" not in body)
