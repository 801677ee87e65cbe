"""The languages pbp writes in (docs/design.md: Languages): English, the source, and each
language with a catalog under templates/locale/<code>/LC_MESSAGES/. A catalog is a gettext
`.po` file per domain (mail, public, web, glossary, …); a language's domains are read and
merged into one set of translations, compiled in memory the first time that language is
written, so no compiled file is kept beside its source.

Plural forms come from each catalog's CLDR rule (Babel writes it in the header); dates and
times are written with Babel in the reader's language (pbp.render.moments)."""

from __future__ import annotations

import gettext
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from pbp.release import templates_folder

SOURCE_LANGUAGE = "en"
LOCALE_FOLDER = "locale"
# Each catalog domain and the folders of templates/ whose messages it holds; `glossary`
# holds the games' vocabulary (roles, teams, phases, rooms), which the Python side words
# (pbp.render.words) and docs/glossary.md fixes, so that one role has one name everywhere.
DOMAINS: dict[str, tuple[str, ...]] = {
    "mail": ("mail", "signups", "help"),
    "public": ("public",),
    "rulesets": (),  # each ruleset's own folder: `domain_folders`
    "web": ("web",),
    "glossary": (),
    "cards": (),  # the rulesets' cards' sentences (pbp.render.card_texts), not templates
    "refusals": (),  # the engine's and shell's refusals of orders (pbp.render.refusals)
}


def domain_folders(domain: str) -> tuple[str, ...]:
    """The folders of templates/ whose messages `domain` holds; the `rulesets` domain holds
    the folder of every ruleset the registry knows."""
    if domain == "rulesets":
        import engine

        return tuple(engine.rulesets())
    return DOMAINS[domain]


def locale_folder(root: Path | None = None) -> Path:
    return (root or templates_folder()) / LOCALE_FOLDER


def languages(root: Path | None = None) -> tuple[str, ...]:
    """English, then every language with a catalog, in alphabetical order."""
    folder = locale_folder(root)
    found = (
        sorted(
            path.name
            for path in folder.iterdir()
            if (path / "LC_MESSAGES").is_dir() and any((path / "LC_MESSAGES").glob("*.po"))
        )
        if folder.is_dir()
        else []
    )
    return (SOURCE_LANGUAGE, *[code for code in found if code != SOURCE_LANGUAGE])


def language_problem(code: str, root: Path | None = None) -> str | None:
    """Why `code` cannot be a reader's language, or None when pbp writes in it."""
    known = languages(root)
    if code in known:
        return None
    return f"pbp does not write in {code!r}; choose one of {', '.join(known)}."


@lru_cache(maxsize=None)
def translations(code: str, root: Path | None = None) -> gettext.NullTranslations:
    """Every domain of `code`'s catalogs as one set of translations (English: none)."""
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    from babel.messages.mofile import write_mo  # only a non-English reader pays for Babel
    from babel.messages.pofile import read_po
    from babel.support import Translations

    merged = Translations()
    for po in sorted((locale_folder(root) / code / "LC_MESSAGES").glob("*.po")):
        with po.open("rb") as source:
            catalog = read_po(source, locale=code, domain=po.stem)
        compiled = BytesIO()
        write_mo(compiled, catalog)
        compiled.seek(0)
        merged.merge(Translations(compiled, domain=po.stem))
    return merged
