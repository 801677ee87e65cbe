"""Order keywords in every language (docs/design.md: Languages — order keywords).

A ruleset's card names its order keywords per language (`keyword_names`: `VOTE` -> de
`ABSTIMMEN`, es `VOTAR`), and the shell adds its own words (`WITHDRAW`, `ALL`, the player
commands HELP, FORM and STATUS). Every language's names are accepted from every player:
a line is turned into the English keyword before the ruleset reads it, so the engine reads
English only; a form and a receipt write the keyword in their reader's language.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Mapping, Sequence

from engine.core import RulesetCard
from pbp.render.languages import SOURCE_LANGUAGE

# The shell's own words: the order block's WITHDRAW (and ALL), the player commands.
SHELL_NAMES: dict[str, dict[str, str]] = {
    "de": {
        "WITHDRAW": "ZURUECKNEHMEN",
        "ALL": "ALLE",
        "HELP": "HILFE",
        "FORM": "FORMULAR",
        "STATUS": "STAND",
    },
    "es": {
        "WITHDRAW": "RETIRAR",
        "ALL": "TODO",
        "HELP": "AYUDA",
        "FORM": "FORMULARIO",
        "STATUS": "ESTADO",
    },
}

_KEPT: dict[int, tuple[RulesetCard, dict[str, dict[str, str]], dict[str, str]]] = {}


def names_by_language(card: RulesetCard) -> dict[str, dict[str, str]]:
    """{language: {KEYWORD: its name}}, the shell's words and the card's."""
    return _kept(card)[1]


def canonical_words(card: RulesetCard) -> dict[str, str]:
    """{name in any language: the English keyword} (the English keywords are not in it)."""
    return _kept(card)[2]


def _kept(card: RulesetCard) -> tuple[RulesetCard, dict[str, dict[str, str]], dict[str, str]]:
    # Worked out once per card: every block and every command read asks.
    kept = _KEPT.get(id(card))
    if kept is None or kept[0] is not card:
        by_language = {language: dict(names) for language, names in SHELL_NAMES.items()}
        for language, pairs in card.keyword_names:
            by_language.setdefault(language, {}).update(dict(pairs))
        back = {
            name: keyword
            for names in by_language.values()
            for keyword, name in names.items()
            if name != keyword
        }
        kept = card, by_language, back
        _KEPT[id(card)] = kept
    return kept


def english_word(word: str, card: RulesetCard) -> str:
    """The English keyword for a word in any language (upper case), else the word."""
    upper = word.upper()
    return canonical_words(card).get(upper, upper)


def english_line(line: str, card: RulesetCard) -> str:
    """An order line with its keyword (and WITHDRAW's order) in English, the rest as
    written: `ABSTIMMEN Bruno` -> `VOTE Bruno`, `RETIRAR VOTAR` -> `WITHDRAW VOTE`."""
    stripped = line.lstrip()
    words = stripped.split(None, 2)
    if not words or stripped.startswith("#"):
        return line
    back = canonical_words(card)
    written = words[0].upper().strip("*_")
    first = back.get(
        written, words[0] if written == "WITHDRAW" else None
    )  # English stays as written
    if first is None:
        return line
    rest = words[1:]
    if first.upper() == "WITHDRAW" and rest and rest[0].upper() in back:
        rest[0] = back[rest[0].upper()]
    elif first == words[0]:
        return line
    return " ".join([line[: len(line) - len(stripped)] + first, *rest])


def english_lines(lines: Sequence[str], card: RulesetCard) -> list[str]:
    return [english_line(line, card) for line in lines]


def keyword_in(keyword: str, card: RulesetCard, language: str) -> str:
    """`keyword` as a reader of `language` writes it (English where it has no name)."""
    return names_by_language(card).get(language, {}).get(keyword, keyword)


def line_in(line: str, card: RulesetCard, language: str) -> str:
    """An English order line (`VOTE Bruno`, `# NOMINATE <player>`) with its keyword in
    `language`; a line with no keyword of the card is returned as it is."""
    if language not in names_by_language(card):
        return line
    stripped = line.lstrip("# ")
    head = line[: len(line) - len(stripped)]
    word, space, rest = stripped.partition(" ")
    named = keyword_in(word, card, language)
    return line if named == word else f"{head}{named}{space}{rest}"


def thread_words(card: RulesetCard, language: str) -> Mapping[str, str]:
    """The words a forum post's order line may start with in a thread of `language`, each
    with the English word it stands for: the English words and that language's names."""
    english = {*card.public_orders, *(word for word, _ in card.take_back_words)}
    names = names_by_language(card).get(language, {})
    return {
        **{word: word for word in english},
        **{names[word]: word for word in english if word in names},
    }


@lru_cache(maxsize=None)
def _every_ruleset_names(language: str) -> dict[str, str]:
    """{KEYWORD: its name in `language`} over every ruleset's card: a receipt's lines are
    worded without their ruleset at hand. No two rulesets name one keyword differently
    (tests/render/test_keyword_names.py)."""
    import engine

    named: dict[str, str] = dict(SHELL_NAMES.get(language, {}))
    for name in engine.rulesets():
        named.update(names_by_language(engine.ruleset(name).card).get(language, {}))
    return named


def order_in(line: str, language: str) -> str:
    """An accepted order's canonical line (`VOTE Bruno`) as its reader of `language` reads
    it (`ABSTIMMEN Bruno`); the rest of the line, names and rooms, stays as it is."""
    if language == SOURCE_LANGUAGE:
        return line
    word, space, rest = line.partition(" ")
    return f"{_every_ruleset_names(language).get(word, word)}{space}{rest}"
