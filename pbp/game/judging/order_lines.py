"""A block's order lines as the shell reads them before the engine parses them
(docs/design.md: Order mail format — wrapped lines, taking an order back).

**Lines a mail program broke.** Gmail and Outlook in plain-text mode break a long line at
about 76 columns, so the end of a long order (an anonymous message) arrives as a line of
its own. A line is read as the end of the line above it when it is not an order of its own
(its first word is no order keyword), the line above it is long enough to have been broken
there (its length plus the line's first word passes 72 columns) and is not longer than a
mail program lets a line be (80). The end of a `#` line is dropped with it.

**WITHDRAW.** `WITHDRAW <ORDER>` takes back the player's accepted order of that keyword for
the open phase, `WITHDRAW ALL` all of them. A block that holds only WITHDRAW lines changes
the orders that stand: what it names goes, the rest stays. A block with orders replaces the
earlier ones as every block does, so its WITHDRAW lines only must not name one of its own
orders. What a withdrawn order means is the ruleset's: the phase is resolved with the
orders that remain, and a player with none gets the rules' default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from engine.core import (
    IllegalOrderError,
    OrderBlockError,
    OrderError,
    OrderSyntaxError,
    Phase,
    Ruleset,
    RulesetCard,
)
from engine.errors import suggestion
from pbp.render.keyword_names import canonical_words, english_lines
from pbp.game.vote_channels import MAIL, mail_block, takes_from_thread, with_standing_public
from pbp.render.verdicts import Note

WITHDRAW = "WITHDRAW"
ALL = "ALL"
_WRAP_COLUMNS = 72  # a mail program breaks no line that fits in this many columns
_LONGEST_LINE = 80  # nor leaves one longer than this


def _first_word(line: str) -> str:
    words = line.split(None, 1)
    return words[0].upper().strip("*_") if words else ""


def rejoin_wrapped(lines: Sequence[str], known: frozenset[str]) -> list[str]:
    """`lines` with each broken-off line end joined to its line (see the module's
    docstring); a line that held an end is left blank, so line numbers still hold. `known`
    are the words an order starts with (upper case; `order_keywords`)."""
    out = list(lines)
    target: int | None = None  # the line the previous end was joined to
    for index in range(1, len(lines)):
        line, above = lines[index], lines[index - 1]
        broken = (
            line
            and not line.startswith("#")
            and _first_word(line) not in known
            and above
            and len(above) + 1 + len(line.split()[0]) > _WRAP_COLUMNS
            and len(above) <= _LONGEST_LINE
        )
        if not broken:
            target = None
            continue
        target = target if target is not None else index - 1
        if not out[target].startswith("#"):
            out[target] = f"{out[target]} {line}"
        out[index] = ""
    return out


@dataclass(frozen=True)
class Withdrawals:
    """A block's WITHDRAW lines: each (line number, keyword taken back; `ALL` for all), the
    block's other lines for the engine (WITHDRAW lines blanked, so line numbers still hold),
    and the errors found in the WITHDRAW lines. Lines are numbered like the engine's errors
    (the first line is 1)."""

    named: tuple[tuple[int, str], ...]
    lines: tuple[str, ...]
    errors: tuple[OrderError, ...]

    @property
    def keywords(self) -> tuple[str, ...]:
        return tuple(keyword for _line, keyword in self.named)

    @property
    def only(self) -> bool:
        """The block holds WITHDRAW lines and no order."""
        return bool(self.named) and not any(
            line and not line.startswith("#") for line in self.lines
        )

    def left_of(
        self, standing: Sequence[str], phase_words: str
    ) -> tuple[list[str], list[OrderError]]:
        """The standing order lines that remain once this block's keywords are taken back,
        and an error for each keyword that no standing order has."""
        held = {_first_word(line) for line in standing}
        errors = [
            IllegalOrderError.of(
                "you have no accepted %(keyword)s order for %(phase)s to take back.",
                keyword=keyword,
                phase=phase_words,
            ).at(line, f"{WITHDRAW} {keyword}")
            for line, keyword in self.named
            if keyword != ALL and keyword not in held
        ]
        if ALL in self.keywords:
            return [], errors
        return [line for line in standing if _first_word(line) not in self.keywords], errors


_KEYWORDS: dict[int, tuple[RulesetCard, frozenset[str]]] = {}  # id(card) -> (card, its keywords)


def order_keywords(card: RulesetCard) -> frozenset[str]:
    """The words an order of a ruleset starts with, in upper case: the first words of its
    card's order table, and WITHDRAW, in every language (pbp.render.keyword_names). Worked
    out once per card (every block read asks)."""
    kept = _KEYWORDS.get(id(card))
    if kept is None or kept[0] is not card:
        firsts = {line.order.split()[0].upper() for line in card.orders if line.order.split()}
        kept = card, frozenset(firsts | {WITHDRAW} | set(canonical_words(card)))
        _KEYWORDS[id(card)] = kept
    return kept[1]


def read_withdrawals(lines: Sequence[str], offered: Sequence[str], phase_words: str) -> Withdrawals:
    """The WITHDRAW lines of a block whose sender may give the orders `offered` (keywords)."""
    if not any(WITHDRAW in line.upper() for line in lines):
        return Withdrawals((), tuple(lines), ())  # most blocks
    named: list[tuple[int, str]] = []
    errors: list[OrderError] = []
    rest = list(lines)
    choices = [*dict.fromkeys(keyword.upper() for keyword in offered), ALL]
    for index, line in enumerate(lines):
        if _first_word(line) != WITHDRAW:
            continue
        rest[index] = ""
        keyword = " ".join(line.split()[1:]).upper().strip(".*_")
        if keyword in choices:
            named.append((index + 1, keyword))
            continue
        refusal = (
            OrderSyntaxError.of(
                '"%(word)s" is not an order you can give in %(phase)s; write WITHDRAW and one '
                "of %(choices)s.%(hint)s",
                word=keyword,
                phase=phase_words,
                choices=", ".join(choices),
                hint=suggestion(keyword, choices),
            )
            if keyword
            else OrderSyntaxError.of(
                "WITHDRAW names no order; write WITHDRAW and one of %(choices)s.",
                choices=", ".join(choices),
            )
        )
        errors.append(refusal.at(index + 1, line))
    given = {_first_word(line) for line in rest if line and not line.startswith("#")}
    for line_number, keyword in named:
        if keyword in given or (keyword == ALL and given):
            why = (
                IllegalOrderError(
                    "this block gives that order too, so it cannot also take it back; keep one"
                    " of the two lines."
                )
                if keyword != ALL
                else IllegalOrderError("a block that takes back ALL holds no order besides.")
            )
            errors.append(why.at(line_number, lines[line_number - 1]))
    return Withdrawals(tuple(named), tuple(rest), tuple(errors))


@dataclass(frozen=True)
class OrdersRead:
    """A block's orders as read: their canonical lines, the standing lines it took back
    (None unless it holds WITHDRAW lines only), and its errors (numbered from 1)."""

    canonical: tuple[str, ...]
    taken_back: tuple[str, ...] | None
    errors: tuple[OrderError, ...]


def read_orders(
    rules: Ruleset,
    state: Any,
    phase: Phase,
    name: str,
    lines: Sequence[str],
    standing_lines: Callable[[], Sequence[str]],
    votes: str = MAIL,
    barred: frozenset[str] = frozenset(),
) -> OrdersRead:
    """`name`'s block lines for the open `phase` read as a whole, given the order lines that
    stand for them now (asked only of a block that takes orders back, or when the game takes
    public orders from its thread): wrapped lines joined, WITHDRAW applied, the rest parsed
    by the engine (accepted whole or refused whole). `votes` is the game's option; `barred`
    the public orders this block may not give (pbp.game.vote_channels)."""
    words = rules.card.phase_words(phase.id)
    lines = english_lines(lines, rules.card)  # any language's keywords, read as English's
    joined = rejoin_wrapped(lines, order_keywords(rules.card))
    channel = mail_block(joined, rules.card, barred, words)
    withdrawals = read_withdrawals(
        channel.lines, [spec.keyword for spec in phase.grammar.get(name, ())], words
    )
    errors = [*channel.errors, *withdrawals.errors]
    standing: Sequence[str] = ()
    if withdrawals.only:
        standing = standing_lines()
        to_parse, missing = withdrawals.left_of(standing, words)
        errors += missing
    else:
        to_parse = list(withdrawals.lines)
    canonical: tuple[str, ...] = ()
    try:
        canonical = tuple(str(order) for order in rules.parse_orders(state, name, to_parse))
    except OrderBlockError as failure:
        errors += failure.errors
    if errors:
        return OrdersRead((), None, tuple(sorted(errors, key=lambda error: error.line)))
    if takes_from_thread(votes):
        standing = standing or standing_lines()
        canonical = with_standing_public(
            canonical, standing, rules.card, votes, channel.names_public
        )
    taken = tuple(line for line in standing if line not in canonical) if withdrawals.only else None
    return OrdersRead(canonical, taken, ())


PLAYER_COMMANDS = (
    "HELP",
    "FORM",
    "STATUS",
    "LANGUAGE",
)  # words a mail without a block may hold (docs/design.md)


def stray_orders(stray: Sequence[str], card: RulesetCard) -> list[str]:
    """The lines written outside every block that read as orders (an order keyword first)."""
    keywords = order_keywords(card)
    return [line for line in stray if _first_word(line) in keywords]


def stray_orders_note(lines: Sequence[str]) -> Note:
    """The receipt's note on order lines written outside the block: not taken, and why
    (it quotes the first few)."""
    return Note("stray_orders", lines=tuple(lines))
