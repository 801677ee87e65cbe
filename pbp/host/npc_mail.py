"""The host's orders for an NPC by mail (docs/design.md: The host's view): the host replies
to an NPC's report with the form's block, which carries the game's host token and a line
`NPC: <name>` under it, and gets a receipt, as a player does for their own block.

Only a mail from `[forum] host_address` is read here, and only its blocks that name an NPC;
everything else from the host (approvals, help) goes on to pbp.forum.approval_mail. Wrong
host tokens count against the address like a player's (pbp.game.token_guard: the right token
always works). The orders are judged by the same engine parser and stored like
`pbp submit`'s.
"""
from __future__ import annotations

import re
from typing import Callable

from pbp.errors import UserError
from pbp.storage.drafts import DraftBook
from pbp.game.host_contact import answer_host, tell_host_of_wrong_tokens
from pbp.game.stored import StoredGame, load
from pbp.host.orders import enter_orders, parse_for
from pbp.storage.inbound_ledger import MailLedger
from pbp.moderator import Moderator
from pbp.ports import InboundMail, OrderBlock, Outcome
from pbp.game.token_guard import TokenGuard

_NPC_LINE = re.compile(r"^NPC\s*:\s*(\S+)\s*$", re.IGNORECASE)


def npc_named(block: OrderBlock) -> str | None:
    """The NPC a block names on its first line after TOKEN (`NPC: Raiden`), or None."""
    first = next((line for line in block.lines if line.strip()), "")
    match = _NPC_LINE.match(first.strip())
    return match.group(1) if match else None


def npc_orders_mail(moderator: Moderator, ledger: MailLedger, mail: InboundMail,
                    may_reply: Callable[[StoredGame, str], bool]) -> Outcome | None:
    """Handle the host's mail holding an NPC's order block, or return None when it is not
    one. The first such block counts (one mail, one NPC, like one player's mail)."""
    host = moderator.settings.host_address
    if not host or mail.sender != host:
        return None
    block = next((b for b in mail.blocks if npc_named(b)), None)
    if block is None:
        return None
    games = moderator.folder.game_ids()
    if block.game not in games:
        return ledger.record_refused(mail, f"NPC block for an unknown game {block.game!r}")
    game = load(moderator, block.game)
    with game.file.transaction():
        outcome, reason, reply = _judge(moderator, game, mail, block, host)
        answer_host(moderator, game, mail, "npc-receipt", reply, may_reply, f"[{game.id}] NPC orders")
        row = ledger.record(game.file, mail, outcome, reason)
    ledger.remember(row)
    return outcome


def _judge(moderator: Moderator, game: StoredGame, mail: InboundMail, block: OrderBlock,
           host: str) -> tuple[Outcome, str, str]:
    """(outcome, reason for the ledger, the reply) of one NPC block, sent from the host's
    address `host`; accepted orders are stored."""
    guard = TokenGuard(game.file, host, moderator.clock().date(),
                       moderator.settings.wrong_tokens_per_sender_per_day)
    named = npc_named(block) or ""
    head = f"Your orders for {named} in {block.game} {block.phase} were not accepted"
    try:
        if not block.token or block.token.strip() != DraftBook(game.file).host_token():
            if block.token:
                guard.note_wrong()
            if guard.unanswered:
                return "rejected", "NPC orders with a wrong host token past the daily limit, not answered", ""
            return "rejected", "NPC orders with a wrong host token", (
                f"{head}: the TOKEN is not this game's host token. Reply to the NPC's latest report, whose "
                "form holds the right one.")
        guard.note_right()
        name = next((n for n in game.record.npc_names if n.lower() == named.lower()), None)
        if name is None:
            known = ", ".join(game.record.npc_names) or "none"
            return "rejected", "NPC orders for an unknown NPC", (
                f"{head}: {game.id} has no NPC {named!r} (its NPCs: {known}).")
        if game.phase is None or block.phase.lower() != game.phase.id.lower():
            current = game.phase.id if game.phase else "none (the game is over)"
            return "rejected", "NPC orders for another phase", (
                f"{head}: the phase is not open; the current phase is {current}.")
        order_lines = list(block.lines)
        start = order_lines.index(next(line for line in order_lines if line.strip()))
        canonical = parse_for(game, name, order_lines[start + 1:], block.first_line_number + start + 1)
        enter_orders(moderator, game, name, canonical, mail_key=mail.key, message_id=mail.message_id)
        shown = "\n".join(f"  {line}" for line in canonical) or "  (no orders: the rules' default applies)"
        return "processed", f"NPC orders for {name}", (
            f"Accepted for {name} in {game.phase.id}:\n{shown}\nThese replace any orders given earlier for "
            f"{name} in this phase.")
    except UserError as error:
        return "rejected", "NPC orders not accepted", f"{head}: {error}"
    finally:
        guard.save(game.file)
        if guard.newly_over_limit:
            tell_host_of_wrong_tokens(moderator, game, guard)
