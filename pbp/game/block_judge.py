"""Judging one order block against its game (docs/design.md: Order mail format): identity,
phase, then the engine's parse. A block for another phase, a closed phase, a dead player or
with a wrong token is refused with a reason the player can act on."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbp.game.stored import StoredGame
from pbp.mail.limits import listed, quoted
from pbp.game.order_lines import read_orders
from pbp.ports import OrderBlock
from pbp.render.verdicts import Accepted, Refused, Verdict
from pbp.render.moments import render_received
from pbp.timezones import to_text
from pbp.game.token_guard import TokenGuard


@dataclass(frozen=True)
class BlockVerdict:
    """One order block judged: the verdict its receipt words (templates/mail/_verdicts.j2)
    and, accepted, the order row it stores."""

    verdict: Verdict
    submission: bool = True  # False: a form sent back with nothing filled in
    order_row: dict[str, str] | None = None

    @property
    def accepted(self) -> bool:
        return isinstance(self.verdict, Accepted)


def open_phase_words(game: StoredGame) -> str:
    """The open phase as a player reads it, with the id a block names it by:
    "Day 2 — vote (D2-vote in the block)"."""
    return _with_id(game, game.open_phase.id, " in the block")


def _with_id(game: StoredGame, phase_id: str, where: str = "") -> str:
    """A phase's words followed by its id (a ruleset that words nothing just gives the id)."""
    words = game.rules.card.phase_words(phase_id)
    return words if words == phase_id else f"{words} ({phase_id}{where})"


def judge_block(game: StoredGame, name: str, games: list[str], guard: TokenGuard, block: OrderBlock,
                now: datetime) -> BlockVerdict:
    """One block: identity, phase, then the engine's parse (docs/design.md: Order mail
    format — a block for another phase, a closed phase, a dead player or with a wrong
    token is rejected with a reason). `games` are the sender's games; `guard` counts their
    wrong tokens (pbp.game.token_guard)."""
    about = {"block_game": block.game, "block_phase": block.phase}
    refused = identity_refusal(game, name, games, guard, block.token, about)
    if refused:
        return BlockVerdict(refused)
    if game.phase is None:
        return BlockVerdict(Refused("game_over", game_id=game.id, **about))
    if block.phase.lower() != game.phase.id.lower():
        if block.phase in game.record.resolved:
            return BlockVerdict(Refused("closed_phase", phase_words=_with_id(game, block.phase),
                                        open_phase=open_phase_words(game), **about))
        return BlockVerdict(Refused("no_such_phase", open_phase=open_phase_words(game), **about))
    words = game.rules.card.phase_words(game.phase.id)
    if name not in game.phase.actors:
        if not game.status(name).alive:
            return BlockVerdict(Refused("dead", name=name, **about))
        return BlockVerdict(Refused("no_orders_to_give", phase_words=words, **about))
    if not block.has_orders:
        return BlockVerdict(Refused("empty_form", phase_words=words, **about), submission=False)
    return _parsed(game, name, block, now, about)


def _parsed(game: StoredGame, name: str, block: OrderBlock, now: datetime, about: dict[str, str]) -> BlockVerdict:
    """The block's lines read as a whole (pbp.game.order_lines.read_orders): accepted whole or
    refused whole."""
    phase = game.open_phase
    words = game.rules.card.phase_words(phase.id)
    read = read_orders(game.rules, game.state, phase, name, block.lines, lambda: game.standing_lines(name),
                       votes=game.votes, barred=game.thread_only(name))
    if read.errors:
        errors = listed([str(e.moved(block.first_line_number - 1, quoted(e.text))) for e in read.errors])
        barred = game.thread_only(name)  # orders given in the thread are not listed as mail's
        grammar = tuple(s.syntax for s in phase.grammar.get(name, ()) if s.keyword not in barred)
        return BlockVerdict(Refused("bad_orders", errors=tuple(errors), grammar=grammar, phase_words=words,
                                    in_thread=bool(barred), **about))
    received = to_text(now)
    row = {"phase": phase.id, "player": name, "text": "\n".join(read.canonical),
           "received": received, "message_id": "", "mail_key": ""}
    given = {line.split()[0].upper() for line in read.canonical if line.split()}
    defaults = tuple(spec.default for spec in phase.grammar.get(name, ()) if spec.default and spec.keyword not in given)
    return BlockVerdict(Accepted("orders_accepted", phase_words=words, lines=read.canonical,
                                 taken_back=read.taken_back,
                                 received=render_received(received, game.zone_of(name), game.roster.language_of(name)),
                                 defaults=defaults if read.taken_back is not None else ()),
                        order_row=row)


def identity_refusal(game: StoredGame, name: str, games: list[str], guard: TokenGuard, token: str | None,
                     about: dict[str, str]) -> Refused | None:
    """Why a block (orders or a message) does not prove its sender, or None when the game
    and the token are right (docs/design.md: Reliability rules — Identity). `about` names
    the block (its game, and its phase or channel) as the refusal quotes it. A wrong token
    counts against the address; the right one starts its count again
    (pbp.game.token_guard)."""
    block_game = about["block_game"]
    if block_game != game.id:
        if block_game not in games:
            return Refused("unknown_game", games=tuple(games), **about)
        return Refused("other_game", game_id=game.id, **about)
    if token is None:
        return Refused("no_token", **about)
    if token.strip() != game.token(name):
        guard.note_wrong()
        return Refused("wrong_token", game_id=game.id, last_answered=guard.count == guard.limit, **about)
    guard.note_right()
    return None
