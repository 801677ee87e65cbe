"""Which names a player or NPC may take (docs/design.md: Command line, the roster rules).

A name must never be mistaken for a room, a floor or a grammar word in an order line.
"""
from __future__ import annotations

import re
from typing import Iterable, Sequence

import engine
from engine.core import RulesetCard

# The words of an order mail's own syntax (docs/design.md: Order mail format); every
# ruleset's grammar words come from its card.
MAIL_WORDS = frozenset({"BEGIN", "END", "ORDERS", "TOKEN", "HELP", "FORM", "STATUS", "APPROVE"})


def _cards() -> tuple[RulesetCard, ...]:
    return tuple(engine.ruleset(name).card for name in engine.rulesets())


def reserved_words() -> frozenset[str]:
    """Every word a name may not be: the mail syntax and every registered ruleset's words."""
    return MAIL_WORDS.union(*(card.reserved_words for card in _cards()))


_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,19}$")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's or NPC's name, or None when it can."""
    if not _NAME.match(name):
        return (f"{name!r} is not a valid name: use 1-20 letters, digits, '_' or '-', "
                "starting with a letter")
    for card in _cards():
        reading = card.reserved_form(name)
        if reading is not None:
            return f"{name!r} {reading}"
    if name.upper() in reserved_words():
        return f"{name!r} is an order keyword; pick another name"
    return None


def name_clash(names: Iterable[str]) -> str | None:
    """Why a list of names cannot share one game (two equal ignoring case), or None."""
    seen: dict[str, str] = {}
    for name in names:
        key = name.lower()
        if key in seen:
            return f"the name {name!r} is used twice (names must differ ignoring case)"
        seen[key] = name
    return None


def roster_problems(names: Sequence[str]) -> list[str]:
    """Every reason why `names` cannot be one game's players and NPCs (empty: they can)."""
    problems = [problem for problem in map(name_problem, names) if problem]
    clash = name_clash(names)
    return problems + ([clash] if clash else [])
