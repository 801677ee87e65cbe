"""Werewolf orders: typed values with a canonical text, and the two-stage parser
(rules: Order grammar).

Stage one (syntax) turns a line into an order value or raises OrderSyntaxError; stage two
(legality) checks it against what the sender may do now, judged only on what the sender
knows, and raises IllegalOrderError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, Sequence

from engine.core import IllegalOrderError, OrderSyntaxError, parse_order_block
from engine.errors import Wording, suggestion
from engine.names import match_name, plain_word


@dataclass(frozen=True)
class TargetOrder:
    """An order naming one player: `KEYWORD <player>`."""

    target: str
    keyword: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{self.keyword} {self.target}"


@dataclass(frozen=True)
class PlainOrder:
    """An order with no argument: `KEYWORD`."""

    keyword: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.keyword


class Love(TargetOrder):
    keyword = "LOVE"


class Nominate(TargetOrder):
    keyword = "NOMINATE"


@dataclass(frozen=True)
class Vote:
    """`VOTE <defendant>` or `VOTE NO LYNCH` (target None)."""

    target: str | None
    keyword: ClassVar[str] = "VOTE"

    def __str__(self) -> str:
        return f"VOTE {self.target}" if self.target else "VOTE NO LYNCH"


class Seduce(TargetOrder):
    keyword = "SEDUCE"


class Strike(TargetOrder):
    keyword = "STRIKE"


class Rouse(PlainOrder):
    keyword = "ROUSE"


class Visit(TargetOrder):
    keyword = "VISIT"


class Protect(TargetOrder):
    keyword = "PROTECT"


class Kill(TargetOrder):
    keyword = "KILL"


class Silence(TargetOrder):
    keyword = "SILENCE"


class Bite(TargetOrder):
    keyword = "BITE"


class See(TargetOrder):
    keyword = "SEE"


class Save(PlainOrder):
    keyword = "SAVE"


class Poison(TargetOrder):
    keyword = "POISON"


DAY_ORDER_CLASSES = (Nominate, Vote)

_LINE = re.compile(r"^\s*([A-Za-z]+)\s*:?\s*(.*?)\s*$")


def match_player(word: str, players: Sequence[str]) -> str | None:
    """The player named `word`: ignoring case and accents, a full stop after it and the
    `*`/`_` a rich-text client wraps it in, never across scripts (engine.names)."""
    return match_name(word, players)


def parse_line(text: str, keywords: Mapping[str, type[Any]], players: Sequence[str]) -> Any:
    """Stage one: one order line into a typed order (player names in their roster case).

    Raises OrderSyntaxError for an unknown keyword or a wrong argument shape, and
    IllegalOrderError for a name that is not a player of this game.
    """
    match = _LINE.match(text)
    if not match:
        raise OrderSyntaxError("an order starts with a keyword such as NOMINATE or VOTE.")
    word, rest = match.group(1).upper(), match.group(2)
    cls = keywords.get(word)
    if cls is None:
        raise OrderSyntaxError.of(
            'unknown order "%(word)s".%(hint)s',
            word=match.group(1),
            hint=suggestion(word, sorted(keywords)),
        )
    args = rest.split()
    if cls is Vote and [plain_word(a).upper() for a in args] == ["NO", "LYNCH"]:
        return Vote(None)
    if issubclass(cls, PlainOrder):
        if args:
            raise OrderSyntaxError.of(
                "%(word)s takes nothing after it; write just %(word)s.", word=word
            )
        return cls()
    if len(args) != 1:
        if cls is Vote:
            raise OrderSyntaxError.of(
                "%(word)s names exactly one player; write %(word)s <player> or VOTE NO LYNCH.",
                word=word,
            )
        raise OrderSyntaxError.of(
            "%(word)s names exactly one player; write %(word)s <player>.", word=word
        )
    name = match_player(args[0], players)
    if name is None:
        raise IllegalOrderError.of(
            '"%(name)s" is not a player in this game.%(hint)s',
            name=args[0],
            hint=suggestion(args[0], players),
        )
    return cls(name)


def parse_block(
    lines: Sequence[str],
    keywords: Mapping[str, type[Any]],
    players: Sequence[str],
    legality: Callable[[Any], None],
) -> tuple[Any, ...]:
    """Every order of a block, or OrderBlockError with every bad line.

    `legality(order)` raises IllegalOrderError (placeless) when the sender may not give
    it now. Comments (`#`) and blank lines are skipped; one line per kind at most.
    """
    return parse_order_block(
        lines,
        lambda text: parse_line(text, keywords, players),
        lambda order: str(order.keyword),
        lambda keyword: Wording(
            "only one %(keyword)s line is allowed and line {earlier} "
            "already has one; keep the one you mean.",
            {"keyword": keyword},
        ),
        legality,
    )
