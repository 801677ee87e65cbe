"""Order keywords in the languages pbp writes (docs/design.md: Languages — order keywords).

A ruleset's card lists, per language, the name a player of that language writes for each
of its order keywords (`VOTE` -> de `ABSTIMMEN`, es `VOTAR`); the shell turns every name
back into the English keyword before the ruleset reads a line, so the engine reads English
only. The names are ASCII capitals (`SCHUETZEN`, not `SCHÜTZEN`): every phone keyboard and
mail program writes them, and a form's line reads the same in every client.
"""

from __future__ import annotations

from typing import Mapping

# The words both rulesets share: the day's vote, and a forum post's way of taking it back.
SHARED = {
    "de": {"VOTE": "ABSTIMMEN", "UNVOTE": "ENTSTIMMEN"},
    "es": {"VOTE": "VOTAR", "UNVOTE": "DESVOTAR"},
}


def keyword_names(
    own: Mapping[str, Mapping[str, str]],
) -> tuple[tuple[str, tuple[tuple[str, str], ...]], ...]:
    """A card's `keyword_names`: the shared words and the ruleset's `own`, per language."""
    languages = sorted({*SHARED, *own})
    return tuple(
        (language, tuple(sorted({**SHARED.get(language, {}), **own.get(language, {})}.items())))
        for language in languages
    )


def every_name(names: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]) -> frozenset[str]:
    """Every language's names, which a player's name may not be."""
    return frozenset(name for _language, pairs in names for _keyword, name in pairs)
