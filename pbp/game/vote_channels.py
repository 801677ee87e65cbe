"""Where a player gives each order: the game's option `votes` (`mail`, `thread` or `both`)
applied to the ruleset card's public orders (docs/design.md: Public posts — votes in the
thread).

- `mail`: every order by mail, as always.
- `thread`: the public orders (Werewolf's NOMINATE and VOTE, Infiltration's VOTE) are
  taken from posts in the game's thread only; a mail block naming one is refused with the
  way to do it, and a mail block of private orders keeps the public order standing (the
  two are given apart, so neither replaces the other). A player silenced for the day may
  vote but not post (rules/werewolf.md, Day: silence), so they vote by mail that day.
- `both`: either way. A mail block without a public order still keeps the standing one.

Nothing here reads a state: who is silenced comes from the player's own status, which
tells only what the player knows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.core import IllegalOrderError, OrderError, RulesetCard
from pbp.game.options import VOTE_CHANNELS

MAIL, THREAD, BOTH = VOTE_CHANNELS
WITHDRAW = "WITHDRAW"  # pbp.game.judging.order_lines.WITHDRAW; order_lines imports this module


def _first_word(line: str) -> str:
    words = line.split(None, 1)
    return words[0].upper().strip("*_.:") if words else ""


def public_keyword(line: str, card: RulesetCard) -> str | None:
    """The public order an order line gives or takes back (`VOTE Bruno`, `WITHDRAW VOTE`),
    or None for a private one."""
    words = line.split()
    first = _first_word(line)
    if first == WITHDRAW and len(words) > 1:
        first = words[1].upper().strip("*_.:")
    return first if first in card.public_orders else None


def thread_only(card: RulesetCard, mode: str, silenced: bool) -> frozenset[str]:
    """The public order keywords a player may give in the thread only, not by mail."""
    if mode != THREAD or silenced:
        return frozenset()
    return frozenset(card.public_orders)


def takes_from_thread(mode: str) -> bool:
    return mode in (THREAD, BOTH)


@dataclass(frozen=True)
class MailBlock:
    """A mail block's lines as the option lets them be read: the lines for the engine (a
    line naming an order that goes in the thread left blank, so line numbers still hold),
    and an error for each such line."""

    lines: tuple[str, ...]
    errors: tuple[OrderError, ...]
    names_public: bool  # the block gives or takes back a public order


def mail_block(
    lines: Sequence[str], card: RulesetCard, barred: frozenset[str], phase_words: str
) -> MailBlock:
    """Refuse, line by line, the public orders a mail may not give (`barred`: `thread_only`)."""
    errors: list[OrderError] = []
    names_public = False
    kept = list(lines)
    for index, line in enumerate(lines):
        keyword = public_keyword(line, card) if line and not line.startswith("#") else None
        if keyword is None:
            continue
        names_public = True
        if keyword in barred:
            kept[index] = ""
            errors.append(
                IllegalOrderError.of(
                    "in this game %(keyword)s is given in the game's public thread, not by mail:"
                    " post a line %(keyword)s <choice> there before the deadline of %(phase)s,"
                    " and leave it out of the block.",
                    keyword=keyword,
                    phase=phase_words,
                ).at(index + 1, line)
            )
    return MailBlock(tuple(kept), tuple(errors), names_public)


def with_standing_public(
    canonical: Sequence[str],
    standing: Sequence[str],
    card: RulesetCard,
    mode: str,
    names_public: bool,
) -> tuple[str, ...]:
    """A mail block's accepted lines with the player's standing public order kept, when
    public orders come from the thread and the block names none: a block of night actions
    or terminal uses must not take back a vote cast in the thread."""
    if not takes_from_thread(mode) or names_public:
        return tuple(canonical)
    kept = [line for line in standing if public_keyword(line, card)]
    return (*(line for line in canonical if not public_keyword(line, card)), *kept)
