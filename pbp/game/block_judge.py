"""Judging one order block against its game (docs/design.md: Order mail format): identity,
phase, then the engine's parse. A block for another phase, a closed phase, a dead player or
with a wrong token is refused with a reason the player can act on."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbp import schedule
from pbp.game.stored import StoredGame
from pbp.mail.limits import listed, quoted
from pbp.game.order_lines import read_orders
from pbp.ports import OrderBlock
from pbp.timezones import render_received
from pbp.game.token_guard import TokenGuard


@dataclass(frozen=True)
class BlockVerdict:
    accepted: bool
    text: str
    submission: bool = True  # False: a form sent back with nothing filled in
    order_row: dict[str, str] | None = None


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
    head = f"Your block for {quoted(block.game, 30)} {quoted(block.phase, 30)}"
    refusal = identity_refusal(game, name, games, guard, block.game, block.token)
    if refusal:
        return BlockVerdict(False, f"{head} was not accepted: {refusal}")
    if game.phase is None:
        return BlockVerdict(False, f"{head} was not accepted: game {game.id} is over, so no more "
                                   "orders are taken.")
    if block.phase.lower() != game.phase.id.lower():
        if block.phase in game.record.resolved:
            why = f"{_with_id(game, block.phase)} is closed (already resolved)"
        else:
            why = f"there is no open phase {quoted(block.phase, 30)}"
        return BlockVerdict(False, f"{head} was not accepted: {why}; the current phase is "
                                   f"{open_phase_words(game)}, and its form is below.")
    if name not in game.phase.actors:
        if not game.status(name).alive:
            why = f"you are dead: your character {name} has died, and the dead give no orders"
        else:
            why = f"you have no orders to give in {game.rules.card.phase_words(game.phase.id)}"
        return BlockVerdict(False, f"{head} was not accepted: {why}.")
    if not block.has_orders:
        return BlockVerdict(False, f"Your reply held the form for {game.rules.card.phase_words(game.phase.id)} with no order "
                                   "filled in, so nothing changed. To give an order, delete the # in front of "
                                   "its line in the block and put your choice in place of the <…>.",
                            submission=False)
    return _parsed(game, name, block, now)


def _parsed(game: StoredGame, name: str, block: OrderBlock, now: datetime) -> BlockVerdict:
    """The block's lines read as a whole (pbp.game.order_lines.read_orders): accepted whole or
    refused whole."""
    phase = game.open_phase
    words = game.rules.card.phase_words(phase.id)
    read = read_orders(game.rules, game.state, phase, name, block.lines, lambda: game.standing_lines(name))
    if read.errors:
        head = f"Your block for {quoted(block.game, 30)} {quoted(block.phase, 30)}"
        listing = "\n".join(listed([str(e.moved(block.first_line_number - 1, quoted(e.text))) for e in read.errors]))
        grammar = ", ".join(s.syntax for s in phase.grammar.get(name, ()))
        can_give = f"Orders you can give in {words}: {grammar}" if grammar else f"You have no orders to give in {words}."
        return BlockVerdict(False, f"{head} was not accepted:\n{listing}\n{can_give}")
    received = schedule.to_text(now)
    row = {"phase": phase.id, "player": name, "text": "\n".join(read.canonical),
           "received": received, "message_id": "", "mail_key": ""}
    shown = "\n".join(f"  {line}" for line in read.canonical) or "  (no orders: the rules' default applies)"
    when = render_received(received, game.zone_of(name))
    if read.taken_back is not None:
        taken = "\n".join(f"  {line}" for line in read.taken_back)
        return BlockVerdict(True, f"Taken back for {words} (received {when}):\n{taken}\n"
                                  f"Your orders for {words} now:\n{shown}", order_row=row)
    return BlockVerdict(True, f"Accepted for {words} (received {when}):\n"
                              f"{shown}\nThese replace any orders you sent earlier for this phase.",
                        order_row=row)


def identity_refusal(game: StoredGame, name: str, games: list[str], guard: TokenGuard, block_game: str,
                     token: str | None) -> str | None:
    """Why a block (orders or a message) does not prove its sender, as the end of a sentence,
    or None when the game and the token are right (docs/design.md: Reliability rules —
    Identity). A wrong token counts against the address; the right one starts its count
    again (pbp.game.token_guard)."""
    if block_game != game.id:
        if block_game not in games:
            return (f"you play in no game called {quoted(block_game, 30)} (your games: {', '.join(games)}). "
                    "Copy the BEGIN line from your latest order form.")
        return (f"one mail may carry orders for one game only, and this mail's game is {game.id}. Send "
                f"orders for {block_game} in a separate reply to a mail of that game.")
    if token is None:
        return "it has no TOKEN line. Copy the block from your latest form, TOKEN line included."
    if token.strip() != game.token(name):
        guard.note_wrong()
        last = (" Your address has now sent too many wrong tokens today, so further ones go unanswered "
                "until 00:00 UTC; your right token always works.") if guard.count == guard.limit else ""
        return (f"the TOKEN is not your token for {game.id}. Copy it from your latest form, or mail FORM "
                f"to get it again.{last}")
    guard.note_right()
    return None
