"""The host's orders for an NPC by mail (docs/design.md: The host's view): the host replies
to an NPC's report with the form's block, which carries the game's host token and a line
`NPC: <name>` under it, and gets a receipt, as a player does for their own block.

Only a mail from `[forum] host_address` is read here, and only its blocks that name an NPC;
everything else from the host (approvals, help) goes on to pbp.forum.publishing.approval_mail. Wrong
host tokens count against the address like a player's (pbp.game.judging.token_guard: the right token
always works). The orders are judged by the same engine parser and stored like
`pbp submit`'s.
"""

from __future__ import annotations

import re
from typing import Callable

from engine.names import match_name
from pbp.errors import UserError
from pbp.game.notifying.host_contact import answer_host, tell_host_of_wrong_tokens
from pbp.game.stored import StoredGame, load
from pbp.host.orders import enter_orders, parse_for
from pbp.storage.mail_ledger import MailLedger
from pbp.moderator import Moderator
from pbp.ports import InboundMail, OrderBlock, Outcome
from pbp.render.verdicts import Accepted, Refused, Verdict, error_facts
from pbp.game.judging.token_guard import TokenGuard
from pbp.storage.host_token import host_token

_NPC_LINE = re.compile(r"^NPC\s*:\s*(\S+)\s*$", re.IGNORECASE)


def npc_named(block: OrderBlock) -> str | None:
    """The NPC a block names on its first line after TOKEN (`NPC: Raiden`), or None."""
    first = next((line for line in block.lines if line.strip()), "")
    match = _NPC_LINE.match(first.strip())
    return match.group(1) if match else None


def npc_orders_mail(
    moderator: Moderator,
    ledger: MailLedger,
    mail: InboundMail,
    may_reply: Callable[[StoredGame, str], bool],
) -> Outcome | None:
    """Handle the host's mail holding an NPC's order block, or return None when it is not
    one. The first such block counts (one mail, one NPC, like one player's mail)."""
    host = moderator.settings.host_address
    if not host or mail.sender != host:
        return None
    block = next((b for b in mail.blocks if npc_named(b)), None)
    if block is None:
        return _unnamed_npc_block(moderator, ledger, mail, may_reply)
    games = moderator.folder.game_ids()
    if block.game not in games:
        return ledger.record_refused(mail, f"NPC block for an unknown game {block.game!r}")
    game = load(moderator, block.game)
    with game.file.transaction():
        outcome, reason, verdict = _judge(moderator, game, mail, block, host)
        answer_host(moderator, game, mail, "npc-receipt", [verdict] if verdict else [], may_reply)
        row = ledger.record(game.file, mail, outcome, reason)
    ledger.remember(row)
    return outcome


def _unnamed_npc_block(
    moderator: Moderator,
    ledger: MailLedger,
    mail: InboundMail,
    may_reply: Callable[[StoredGame, str], bool],
) -> Outcome | None:
    """The host's block with the game's host token and orders but no `NPC:` line (the line
    was deleted, or the form retyped): nothing is accepted, and the answer asks which NPC
    the orders are for, naming the game's NPCs. None when the mail holds no such block
    (an approval, or help, is pbp.forum.publishing.approval_mail's)."""
    games = moderator.folder.game_ids()
    for block in mail.blocks:
        if block.game not in games or not block.token or not block.has_orders or _approves(block):
            continue
        game = load(moderator, block.game)
        if block.token.strip() != host_token(game.file):
            continue
        refused = Refused(
            "npc_block_unnamed",
            game_id=game.id,
            block_phase=block.phase,
            npcs=tuple(game.record.npc_names),
        )
        with game.file.transaction():
            answer_host(moderator, game, mail, "npc-receipt", [refused], may_reply)
            row = ledger.record(
                game.file, mail, "rejected", "host token and orders without an NPC: line"
            )
        ledger.remember(row)
        return "rejected"
    return None


def _approves(block: OrderBlock) -> bool:
    return any(line.strip().upper() == "APPROVE" for line in block.lines)


def _wrong_token(
    game: StoredGame, block: OrderBlock, guard: TokenGuard, about: dict[str, str]
) -> tuple[Outcome, str, Verdict | None] | None:
    """The judgement of a block without the host token (no reply past the daily limit of
    wrong tokens); None when the token is right. Either way the guard counts it."""
    if not block.token or block.token.strip() != host_token(game.file):
        if block.token:
            guard.note_wrong()
        if guard.unanswered:
            return (
                "rejected",
                "NPC orders with a wrong host token past the daily limit, not answered",
                None,
            )
        return (
            "rejected",
            "NPC orders with a wrong host token",
            Refused("npc_wrong_token", **about),
        )
    guard.note_right()
    return None


def _enter(
    moderator: Moderator,
    game: StoredGame,
    phase: str,
    mail: InboundMail,
    block: OrderBlock,
    name: str,
) -> tuple[Outcome, str, Verdict | None]:
    """Store the NPC's orders (the block's lines after the one naming the NPC), or raise a
    UserError saying why they do not read."""
    order_lines = list(block.lines)
    start = order_lines.index(next(line for line in order_lines if line.strip()))
    canonical = parse_for(game, name, order_lines[start + 1 :], block.first_line_number + start + 1)
    enter_orders(moderator, game, name, canonical, mail_key=mail.key, message_id=mail.message_id)
    return (
        "processed",
        f"NPC orders for {name}",
        Accepted("npc_orders_accepted", npc=name, phase=phase, lines=tuple(canonical)),
    )


def _judge(
    moderator: Moderator, game: StoredGame, mail: InboundMail, block: OrderBlock, host: str
) -> tuple[Outcome, str, Verdict | None]:
    """(outcome, reason for the ledger, the reply's verdict or None for no reply) of one NPC
    block, sent from the host's address `host`; accepted orders are stored."""
    guard = TokenGuard(
        game.file,
        host,
        moderator.clock().date(),
        moderator.settings.wrong_tokens_per_sender_per_day,
    )
    named = npc_named(block) or ""
    about = {"npc": named, "block_game": block.game, "block_phase": block.phase}
    try:
        wrong = _wrong_token(game, block, guard, about)
        if wrong is not None:
            return wrong
        name = match_name(
            named, game.record.npc_names
        )  # as orders name players: `raiden` is Raiden
        if name is None:
            return (
                "rejected",
                "NPC orders for an unknown NPC",
                Refused("unknown_npc", game_id=game.id, npcs=tuple(game.record.npc_names), **about),
            )
        if game.phase is None or block.phase.lower() != game.phase.id.lower():
            return (
                "rejected",
                "NPC orders for another phase",
                Refused(
                    "npc_phase_not_open", open_phase=game.phase.id if game.phase else "", **about
                ),
            )
        return _enter(moderator, game, game.phase.id, mail, block, name)
    except UserError as error:
        return (
            "rejected",
            "NPC orders not accepted",
            Refused("npc_orders_refused", **error_facts(error), **about),
        )
    finally:
        guard.save(game.file)
        if guard.newly_over_limit:
            tell_host_of_wrong_tokens(moderator, game, guard)
