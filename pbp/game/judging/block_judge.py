"""Judging one order block against its game (docs/design.md: Order mail format): identity,
phase, then the engine's parse. A block for another phase, a closed phase, a dead player or
with a wrong token is refused with a reason the player can act on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence
from datetime import datetime

from pbp.game.judging.block_rules import (
    IDENTITY_RULES,
    ORDER_RULES,
    BlockCase,
    OrderCase,
    first_refusal,
)
from pbp.game.order_row import OrderRow
from pbp.game.stored import StoredGame
from pbp.mail.limits import listed, quoted
from pbp.game.judging.order_lines import read_orders
from engine.core import OrderError
from pbp.ports import OrderBlock
from pbp.render.verdicts import Accepted, Refused, Verdict
from pbp.render.moments import render_received
from pbp.timezones import to_text
from pbp.game.judging.token_guard import TokenGuard


@dataclass(frozen=True)
class BlockVerdict:
    """One order block judged: the verdict its receipt words (templates/mail/_verdicts.j2)
    and, accepted, the order row it stores."""

    verdict: Verdict
    submission: bool = True  # False: a form sent back with nothing filled in
    order_row: OrderRow | None = None
    rule: str = (
        ""  # the rule of pbp.game.judging.block_rules that refused it, or the parse ("orders_read")
    )

    @property
    def accepted(self) -> bool:
        return isinstance(self.verdict, Accepted)


def judge_block(
    game: StoredGame,
    name: str,
    games: list[str],
    guard: TokenGuard,
    block: OrderBlock,
    now: datetime,
) -> BlockVerdict:
    """One block: the named rules of pbp.game.judging.block_rules (identity, phase, sender), then
    the engine's parse (docs/design.md: Order mail format — a block for another phase, a
    closed phase, a dead player or with a wrong token is rejected with a reason). `games`
    are the sender's games; `guard` counts their wrong tokens (pbp.game.judging.token_guard)."""
    about = {"block_game": block.game, "block_phase": block.phase}
    refused = first_refusal(
        OrderCase(game, name, games, guard, block.token, about, block), ORDER_RULES
    )
    if refused:
        return BlockVerdict(refused.verdict, submission=refused.submission, rule=refused.rule)
    return _parsed(game, name, block, now, about)


def _parsed(
    game: StoredGame, name: str, block: OrderBlock, now: datetime, about: dict[str, str]
) -> BlockVerdict:
    """The block's lines read as a whole (pbp.game.judging.order_lines.read_orders):
    accepted whole or refused whole."""
    phase = game.open_phase
    words = game.rules.card.phase_words(phase.id)
    read = read_orders(
        game.rules,
        game.state,
        phase,
        name,
        block.lines,
        lambda: game.standing_lines(name),
        votes=game.votes,
        barred=game.thread_only(name),
    )
    if read.errors:
        return _refused_whole(game, name, block, read.errors, about)
    received = to_text(now)
    row = OrderRow(phase.id, name, "\n".join(read.canonical), received)
    given = {line.split()[0].upper() for line in read.canonical if line.split()}
    defaults = tuple(
        spec.default
        for spec in phase.grammar.get(name, ())
        if spec.default and spec.keyword not in given
    )
    return BlockVerdict(
        Accepted(
            "orders_accepted",
            phase_words=words,
            lines=read.canonical,
            taken_back=read.taken_back,
            received=render_received(received, game.zone_of(name), game.roster.language_of(name)),
            defaults=defaults if read.taken_back is not None else (),
        ),
        order_row=row,
    )


def _refused_whole(
    game: StoredGame,
    name: str,
    block: OrderBlock,
    errors: Sequence[OrderError],
    about: dict[str, str],
) -> BlockVerdict:
    """The refusal of a block with lines that do not read, each error placed at its line of
    the mail, with the grammar of the orders the player may give by mail."""
    phase = game.open_phase
    moved = [e.moved(block.first_line_number - 1, quoted(e.text)) for e in errors]
    placed = listed([str(e) for e in moved])
    barred = game.thread_only(name)  # orders given in the thread are not listed as mail's
    grammar = tuple(s.syntax for s in phase.grammar.get(name, ()) if s.keyword not in barred)
    return BlockVerdict(
        Refused(
            "bad_orders",
            errors=tuple(placed),
            placed=tuple(moved),  # worded anew for a reader of another language
            grammar=grammar,
            phase_words=game.rules.card.phase_words(phase.id),
            in_thread=bool(barred),
            **about,
        ),
        rule="orders_read",
    )


def identity_refusal(
    game: StoredGame,
    name: str,
    games: list[str],
    guard: TokenGuard,
    token: str | None,
    about: dict[str, str],
) -> Refused | None:
    """Why a block (orders or a message) does not prove its sender, or None when the game
    and the token are right (docs/design.md: Reliability rules — Identity): the identity
    rules of pbp.game.judging.block_rules. `about` names the block (its game, and its phase or
    channel) as the refusal quotes it."""
    refused = first_refusal(BlockCase(game, name, games, guard, token, about), IDENTITY_RULES)
    return refused.verdict if refused else None
