"""Which names a player or NPC may take, and how an order's word finds a name
(docs/design.md: Command line, the roster rules).

A name is 1-20 letters of one script (any alphabet), ASCII digits, `_` or `-`, starting
with a letter, none of them invisible (Unicode's default-ignorable code points, such as
the Hangul filler). It must never be mistaken for a room, a floor, a grammar word in an
order line or the host (`host` names the host's channel). An order's word finds a name by
its `name_key`: case and accents ignored, scripts kept apart (a Cyrillic `а` never equals
a Latin `a`), so `VOTE jose` names José. Two names of one game must differ by that key
and must not look alike: their Unicode confusable skeletons (UTS #39, from ICU through
PyICU) differ too, so `Расо` (Cyrillic) cannot sit beside `Paco`, nor `AIice` beside
`Alice`.

Which words a name may not be depends on the rulesets asked (`NameRules`): a ruleset checks
its own card's words, and the registry (`engine.name_problem`) every ruleset's, made once
per process. Nothing here asks the registry, so using one ruleset never loads another.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from engine.core import RulesetCard
from engine.errors import NO_HINT, Term, Value, Wording
from engine.folding import fold as fold

# The words of an order mail's own syntax (docs/design.md: Order mail format); every
# ruleset's grammar words come from its card.
MAIL_WORDS = frozenset(
    {"BEGIN", "END", "ORDERS", "TOKEN", "HELP", "FORM", "STATUS", "APPROVE", "WITHDRAW"}
)

# Words a name may not be, nor look like: `host` names the host's channel in the mail
# (BEGIN MESSAGE <game> host) and the host wherever pbp names who wrote a message.
RESERVED_NAMES = frozenset({"host"})
MAX_LENGTH = 20
NAME_MARKS = frozenset("0123456789_-")  # the characters besides letters a name may hold
# Writing systems whose scripts are written together in one name (Japanese mixes kanji and
# kana; Korean may mix hanja and hangul), as Unicode's "highly restrictive" profile allows.
_SCRIPT_FAMILIES = {"CJK": "Han", "HIRAGANA": "Han", "KATAKANA": "Han", "HANGUL": "Han"}
# The scripts whose names the catalogs translate (the domain `refusals`, context `script`),
# as the sign-up problem of a name mixing two names them; another script's name is its
# Unicode name (docs/design.md: Languages — the host's mail and the last English words).
SCRIPT = "script"
SCRIPT_NAMES = (
    "Latin",
    "Cyrillic",
    "Greek",
    "Han",
    "Arabic",
    "Hebrew",
    "Armenian",
    "Georgian",
    "Devanagari",
    "Thai",
)
# Rich-text mail clients wrap a word in these for bold or italics (`*Ivan*`, `_Ivan_`).
_EMPHASIS = "*_"


@dataclass(frozen=True, eq=False)  # made once per set of cards and cached by identity
class NameRules:
    """What a name may not be besides its shape: `words` (the mail syntax and the cards'
    grammar words) and `forms`, each card's `reserved_form`."""

    words: frozenset[str]
    forms: tuple[Callable[[str], str | Wording | None], ...]

    @classmethod
    def of(cls, cards: Iterable[RulesetCard]) -> NameRules:
        cards = tuple(cards)
        return cls(
            MAIL_WORDS.union(*(card.reserved_words for card in cards)),
            tuple(card.reserved_form for card in cards),
        )


@functools.cache
def _spoof_checker() -> Any:
    # PyICU loads at the first name checked: loading ICU's data is a good part of a
    # command's start, which a command that checks no name need not pay (docs/design.md:
    # Start-up).
    import icu

    return icu.SpoofChecker()


@functools.lru_cache(maxsize=4096)
def skeleton(text: str) -> str:
    """`text`'s confusable skeleton (UTS #39): two texts with one skeleton look alike
    (`Расо` and `Paco`, `AIice` and `Alice`, `rn` and `m`)."""
    return str(_spoof_checker().getSkeleton(0, text))


def _invisible(char: str) -> bool:
    """A default-ignorable code point: drawn as nothing, or as blank (the Hangul filler)."""
    import icu  # see _spoof_checker

    return bool(icu.Char.hasBinaryProperty(char, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT))


def _likeness(name: str) -> tuple[tuple[str, str], ...]:
    """(kind, key) pairs: two names with one key of a kind are one name (`same`: equal
    ignoring case and accents) or look alike (`alike`: one skeleton, as written,
    case-folded or in capitals, as a post in capitals shows `ΑΚΙ` and `Aki` alike)."""
    folded = fold(name)
    return (
        ("same", folded),
        ("alike", skeleton(name)),
        ("alike folded", skeleton(folded)),
        ("alike upper", skeleton(name.upper())),
    )


def look_alike(one: str, other: str) -> bool:
    """Whether two names are one name ignoring case and accents, or look alike."""
    return any(a == b for a, b in zip(_likeness(one), _likeness(other)))


def plain_word(word: str) -> str:
    """An order's word as the player meant it: without the emphasis a rich-text client
    wraps around it (`*Ivan*`, `_Ivan_`) and without a sentence's full stop (`Ivan.`).
    No name starts with `_` or holds a full stop, so nothing is lost."""
    word = word.strip()
    while len(word) > 2 and word[0] == word[-1] and word[0] in _EMPHASIS:
        word = word[1:-1]
    return word.rstrip(".") if len(word) > 1 else word


@functools.lru_cache(maxsize=4096)  # orders name the same few players over and over
def name_key(word: str) -> str:
    """What two spellings of one name share (`name_key("*josé.*")` is `jose`)."""
    return fold(plain_word(word))


@functools.lru_cache(maxsize=64)  # a game's names never change, and every state and view asks
def keyed_names(names: tuple[str, ...]) -> dict[str, str]:
    """Each of `names` by its `name_key` (the result is shared: never change it)."""
    return {name_key(name): name for name in names}


def match_name(word: str, names: Iterable[str]) -> str | None:
    """The name among `names` that `word` spells, ignoring case, accents, emphasis and a
    full stop, but never across scripts; None when there is none."""
    key = name_key(word)
    return next((name for name in names if name_key(name) == key), None)


def script_of(letter: str) -> str:
    """The script a letter is written in (`LATIN`, `CYRILLIC`, `Han`, …), from its Unicode
    name; the Han family groups Japanese and Korean writing with Chinese characters."""
    first = unicodedata.name(letter, "UNKNOWN").split()[0]
    return _SCRIPT_FAMILIES.get(first, first)


def _shape_problem(name: str) -> Wording | None:
    """Why `name`'s characters cannot make a name, or None."""
    rule = Wording(
        "use 1-20 letters of one alphabet, digits, '_' or '-', starting with a letter "
        "(e.g. José, Иван, 陈伟, Mary_Ann)"
    )
    if not name or len(name) > MAX_LENGTH or not name[0].isalpha():
        return Wording("%(name)r is not a valid name: %(rule)s", {"name": name, "rule": rule})
    invisible = [c for c in name if _invisible(c)]
    if invisible:
        return Wording(
            "%(name)r is not a valid name: it holds an invisible character (U+%(code)s); %(rule)s",
            {"name": name, "code": format(ord(invisible[0]), "04X"), "rule": rule},
        )
    odd = [c for c in name if not c.isalpha() and c not in NAME_MARKS]
    if odd:
        return Wording(
            "%(name)r is not a valid name: %(odd)r is not allowed; %(rule)s",
            {"name": name, "odd": odd[0], "rule": rule},
        )
    scripts = sorted({script_of(c).title() for c in name if c.isalpha()})
    if len(scripts) > 1:
        return Wording(
            "%(name)r is not a valid name: it mixes letters of the %(scripts)s scripts; write"
            " a name in one alphabet (look-alike letters of two scripts would be confusing)",
            {"name": name, "scripts": _listed_scripts(scripts)},
        )
    return None


def _listed_scripts(scripts: list[str]) -> Wording:
    """`Cyrillic and Greek and Latin`, each script's name a Term the reader's language
    names (SCRIPT_NAMES)."""
    first, *rest = [Term(script, SCRIPT) for script in scripts]
    said: Value = first
    for script in rest:
        said = Wording("%(first)s and %(last)s", {"first": said, "last": script})
    return said if isinstance(said, Wording) else Wording("%(first)s", {"first": said})


@functools.lru_cache(maxsize=4096)  # rosters repeat their names (every simulated game has the same)
def name_wording(name: str, rules: NameRules) -> Wording | None:
    """Why `name` cannot be a player's or NPC's name under `rules`, as a Wording a reader's
    language words (docs/design.md: Refusals in every language), or None when it can."""
    name = unicodedata.normalize("NFC", name)
    shape = _shape_problem(name)
    if shape:
        return shape
    for reserved_form in rules.forms:
        reading = reserved_form(name) or reserved_form(fold(name))
        if reading is not None:
            said = reading if isinstance(reading, Wording) else Wording(reading)
            return Wording("%(name)r %(reading)s", {"name": name, "reading": said})
    if name.upper() in rules.words or fold(name).upper() in rules.words:
        return Wording("%(name)r is an order keyword; pick another name", {"name": name})
    if any(look_alike(name, word) for word in RESERVED_NAMES):
        return Wording(
            "%(name)r is the word for the host in pbp's mail (a message to the host is BEGIN"
            " MESSAGE <game> host); pick another name",
            {"name": name},
        )
    return None


def name_problem(name: str, rules: NameRules) -> str | None:
    """Why `name` cannot be a player's or NPC's name under `rules`, or None when it can."""
    problem = name_wording(name, rules)
    return None if problem is None else str(problem)


def name_clash(names: Iterable[str]) -> str | None:
    """Why a list of names cannot share one game (two equal ignoring case and accents),
    or None; the first clash only (`name_clashes` gives them all)."""
    clashes = name_clashes(names)
    return clashes[0] if clashes else None


def name_clashes(names: Iterable[str]) -> list[str]:
    """Every pair of names that are one name ignoring case and accents, or look alike."""
    return [str(clash) for clash in name_clash_wordings(names)]


def name_clash_wordings(names: Iterable[str]) -> list[Wording]:
    """`name_clashes` as Wordings a reader's language words."""
    seen: dict[tuple[str, str], str] = {}
    clashes = []
    for name in names:
        keys = _likeness(name)
        found = next((key for key in keys if key in seen), None)  # keys in order: `same` first
        if found is None:
            seen.update((key, name) for key in keys)
        elif found[0] == "same":
            also = (
                Wording(NO_HINT)
                if seen[found] == name
                else Wording(" (as %(earlier)r)", {"earlier": seen[found]})
            )
            clashes.append(
                Wording(
                    "the name %(name)r is used twice%(also)s; names must differ ignoring case"
                    " and accents",
                    {"name": name, "also": also},
                )
            )
        else:
            clashes.append(
                Wording(
                    "the names %(earlier)r and %(name)r look alike (a reader could take one for"
                    " the other); names must look different",
                    {"earlier": seen[found], "name": name},
                )
            )
    return clashes


def roster_problems(names: Sequence[str], rules: NameRules) -> list[str]:
    """Every reason why `names` cannot be one game's players and NPCs (empty: they can)."""
    return [str(problem) for problem in roster_wordings(names, rules)]


def roster_wordings(names: Sequence[str], rules: NameRules) -> list[Wording]:
    """`roster_problems` as Wordings a reader's language words."""
    problems = [problem for problem in (name_wording(name, rules) for name in names) if problem]
    return problems + name_clash_wordings(names)
