"""Judging a mail for its home game (docs/design.md: Order mail format): the last link of
the desk's chain (pbp.desk.chain). Order and message blocks, commands (FORM, STATUS,
HELP; pbp.desk.player_commands), stray order lines and unreadable blocks each become a
`Decision` (pbp.desk.decision): what to store, and the receipt, built from verdict values
(pbp.render.verdicts) that templates/mail/_verdicts.j2 words. Nothing is written here."""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

from pbp.conversations.judge import Delivery, MessageVerdict, free_text_note, judge_message
from pbp.conversations.picks import picks_of_teams
from pbp.desk.decision import Decision, receipt, still_stands
from pbp.desk.player_commands import as_english, decide_command, help_mail
from pbp.desk.choice import choose_blocks, judged_before, judged_entry
from pbp.game.judging.block_judge import BlockVerdict, judge_block
from pbp.game.judging.order_lines import PLAYER_COMMANDS, stray_orders, stray_orders_note
from pbp.game.order_row import OrderRow
from pbp.game.stored import StoredGame
from pbp.game.judging.token_guard import TokenGuard
from engine.errors import Wording
from pbp.mail.limits import MAX_PROBLEMS_LISTED, listed
from pbp.mail.sender_auth import refusal as sender_refusal
from pbp.moderator import Moderator
from pbp.ports import InboundMail, OrderBlock, Outcome
from pbp.render.verdicts import Refused, Verdict


@dataclass(frozen=True)
class JudgedBlocks:
    """A mail's order blocks and message blocks, each judged."""

    verdicts: list[BlockVerdict]
    messages: list[MessageVerdict]

    @property
    def every(self) -> list[BlockVerdict | MessageVerdict]:
        return [*self.verdicts, *self.messages]

    @property
    def accepted(self) -> list[BlockVerdict | MessageVerdict]:
        return [v for v in self.every if v.accepted]

    @property
    def rejected(self) -> list[BlockVerdict | MessageVerdict]:
        """The blocks refused that were meant (not a form sent back unfilled)."""
        return [v for v in self.every if not v.accepted and v.submission]

    @property
    def shown(self) -> list[Verdict]:
        """The verdicts the receipt words: a form sent back unfilled is worth a word only
        when nothing else in the mail was meant (a player filling one form of a quoted
        mail leaves the others empty)."""
        meant = any(v.submission for v in self.every)
        return [v.verdict for v in self.every if v.submission or not meant]

    @property
    def orders(self) -> list[OrderRow]:
        return [v.order_row for v in self.verdicts if v.order_row and v.accepted]

    @property
    def deliveries(self) -> list[Delivery]:
        return [v.delivery for v in self.messages if v.delivery]

    @property
    def refused_by(self) -> list[str]:
        """The named rules that refused a block, once each, in order: an order block's rule
        (pbp.game.judging.block_rules), a message block's refusal kind."""
        named = [v.rule for v in self.verdicts if v.rule and not v.accepted]
        named += [f"message:{v.verdict.kind}" for v in self.messages if not v.accepted]
        return list(dict.fromkeys(named))


def _outcome(accepted: list[Any], rejected: list[Any], orders: bool) -> tuple[Outcome, str, str]:
    """The mail's outcome, the reply's kind and its headline (a kind of the macro `headline`
    of mail/_verdicts.j2): something accepted, else something refused, else only forms."""
    if accepted:
        return "processed", "receipt", "orders_received" if orders else "message_sent"
    if rejected:
        return "rejected", "rejection", "orders_refused" if orders else "message_refused"
    return "processed", "form", "form"


class GameMailJudge:
    """Decides what one mail does to its home game (pbp.desk.Desk commits it)."""

    def __init__(self, moderator: Moderator):
        self.moderator = moderator

    def decide(self, game: StoredGame, mail: InboundMail, games: list[str]) -> Decision:
        """What `mail` does to its home `game`; `games` are the sender's games."""
        if mail.no_reply_reason:
            return Decision(
                "rejected",
                reason=f"not answered: {mail.no_reply_reason}",
                refused_by=["mail_may_be_answered"],
            )
        sender = mail.sender or ""  # a mail reaches its game only from a roster address
        name = game.roster.at(sender).name
        trusted_id = self.moderator.settings.trusted_authserv_id
        refused = (
            sender_refusal(mail.authentication_results, sender, trusted_id) if trusted_id else None
        )
        if refused:
            return self._refused_sender(game, name, refused)
        if mail.blocks or mail.messages:
            return self._decide_blocks(game, name, mail, games)
        stray = stray_orders(mail.stray, game.rules.card)
        if stray and not (
            mail.commands and as_english(mail.commands[0].split()[0], game) in PLAYER_COMMANDS
        ):
            return self._refuse_stray_orders(game, name, stray)
        if mail.commands:
            return decide_command(self.moderator, game, name, mail.commands[0])
        if mail.problems:
            return self._refuse_unread(game, name, mail.problems)
        return Decision(
            "rejected",
            reason="no order block",
            reply_kind="help",
            reply=help_mail(self.moderator, game, name, Refused("no_block")),
            refused_by=["mail_has_a_block"],
        )

    def _refuse_unread(
        self, game: StoredGame, name: str, problems: tuple[str | Wording, ...]
    ) -> Decision:
        """A mail whose blocks could not be read (no END ORDERS, a bad BEGIN line, an
        unreadable mail): nothing was accepted, and the reply says why, each problem in
        the reader's language (the template's filter problem_lines)."""
        notes = [
            *(
                Refused("problems", also=False, problems=(problem,))
                for problem in [
                    *problems[:MAX_PROBLEMS_LISTED],
                    *listed([str(p) for p in problems[MAX_PROBLEMS_LISTED:]], 0),
                ]
            ),
            still_stands(game, name, some_accepted=False),
        ]
        reply = receipt(self.moderator, game, name, "orders_refused", notes)
        return Decision(
            "rejected",
            reason="no readable order block",
            reply=reply,
            reply_kind="rejection",
            refused_by=["blocks_are_readable"],
        )

    def _refused_sender(self, game: StoredGame, name: str, why: str) -> Decision:
        """The second lock (pbp.mail.sender_auth): told to the roster address, nothing changes."""
        reply = receipt(
            self.moderator,
            game,
            name,
            "mail_refused",
            [Refused("sender_not_authenticated", why=why)],
        )
        return Decision(
            "rejected",
            reason=f"sender not authenticated: {why}",
            reply=reply,
            reply_kind="rejection",
            refused_by=["sender_is_authenticated"],
        )

    def _decide_blocks(
        self, game: StoredGame, name: str, mail: InboundMail, games: list[str]
    ) -> Decision:
        """A mail with order or message blocks: each judged by the named rules, then one
        receipt for them all (or none, past the day's limit of wrong tokens)."""
        sender = mail.sender or ""  # a mail reaches its game only from a roster address
        guard = TokenGuard(
            game.file,
            sender,
            self.moderator.clock().date(),
            self.moderator.settings.wrong_tokens_per_sender_per_day,
        )
        choice = choose_blocks(
            mail.blocks,
            lambda phase: judged_before(game.file, sender, phase),
            lambda block: block.game == game.id and (block.token or "").strip() == game.token(name),
        )
        judged = JudgedBlocks(*self._judge_each(game, name, mail, games, guard, choice.blocks))
        outcome, kind, headline = _outcome(judged.accepted, judged.rejected, bool(mail.blocks))
        if (
            guard.unanswered
        ):  # wrong tokens past the day's limit: forged mail must not flood the player
            return Decision(
                outcome,
                reason=(
                    f"{len(judged.rejected)} rejected: wrong tokens past the daily "
                    "limit, not answered"
                ),
                token_guard=guard,
                refused_by=[*judged.refused_by, "wrong_tokens_within_the_daily_limit"],
            )
        notes = [*judged.shown, *choice.notes, *self._notes_besides(game, name, mail, judged)]
        if judged.rejected:
            notes.append(still_stands(game, name, bool(judged.accepted)))
        return Decision(
            outcome,
            reason=f"{len(judged.accepted)} accepted, {len(judged.rejected)} rejected",
            orders=judged.orders,
            reply=receipt(self.moderator, game, name, headline, notes),
            reply_kind=kind,
            token_guard=guard,
            deliveries=judged.deliveries,
            refused_by=judged.refused_by,
            judged=[
                judged_entry(block)
                for block in choice.blocks
                if block.game == game.id and block.has_orders
            ],
        )

    def _judge_each(
        self,
        game: StoredGame,
        name: str,
        mail: InboundMail,
        games: list[str],
        guard: TokenGuard,
        blocks: tuple[OrderBlock, ...],
    ) -> tuple[list[BlockVerdict], list[MessageVerdict]]:
        """Each chosen order block, then each message block, judged; each accepted message
        counts against the daily cap of the next, and a message shows the orders of the
        same mail."""
        now = self.moderator.clock()
        verdicts = [judge_block(game, name, games, guard, block, now) for block in blocks]
        accepted_orders = {v.order_row.player: v.order_row.text for v in verdicts if v.order_row}
        messages: list[MessageVerdict] = []
        for block in mail.messages:
            messages.append(
                judge_message(
                    game,
                    name,
                    games,
                    guard,
                    block,
                    now,
                    self.moderator.settings.replies_per_sender_per_day,
                    accepted_orders,
                    sent_in_mail=sum(1 for verdict in messages if verdict.accepted),
                )
            )
        return verdicts, messages

    def _notes_besides(
        self, game: StoredGame, name: str, mail: InboundMail, judged: JudgedBlocks
    ) -> list[Verdict]:
        """What the receipt says beside the blocks' verdicts: where a team's picks stand,
        the mail's unreadable parts, and order lines or words outside any block."""
        notes: list[Verdict] = []
        accepted_orders = {row.player: row.text for row in judged.orders}
        if accepted_orders:  # a team settling an order together sees where it stands, once
            shown = [delivery.picks for delivery in judged.deliveries]
            notes.extend(
                picks for picks in picks_of_teams(game, name, accepted_orders) if picks not in shown
            )
        if mail.problems:
            notes.append(Refused("problems", also=True, problems=tuple(mail.problems)))
        stray = stray_orders(mail.stray, game.rules.card)
        if stray:
            notes.append(stray_orders_note(stray))
        elif mail.free_text:
            notes.append(free_text_note(game.id))
        return notes

    def _refuse_stray_orders(self, game: StoredGame, name: str, stray: list[str]) -> Decision:
        """A mail with no block whose text has order lines: nothing was taken, and the reply
        says so first, then gives the form to use."""
        phase = game.record.phase_id
        for_what = game.rules.card.phase_words(phase) if phase else f"game {game.id}"
        notes = [
            Refused("no_block_for_orders", for_what=for_what),
            stray_orders_note(stray),
            still_stands(game, name, some_accepted=False),
        ]
        reply = receipt(self.moderator, game, name, "orders_refused", notes)
        return Decision(
            "rejected",
            reason="orders outside a block",
            reply=reply,
            reply_kind="rejection",
            refused_by=["orders_are_in_a_block"],
        )
