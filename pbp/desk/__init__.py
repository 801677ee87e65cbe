"""The order desk: judges one inbound mail and records the result (pbp.ports.OrderDesk;
docs/design.md: Order mail format, Reliability rules — Identity, Loops).

Identity is the roster address in From (the mail side hands exactly one, or None) AND the
player's token in the block; Reply-To plays no part. Every answer goes to the roster
address. Mail from an address on no roster gets no answer (no backscatter) and is recorded
for `pbp status`; mail the loop rules forbid answering gets no answer either. A bounce
for a player's address is filed with that player's game (pbp.desk.bounces). With
`trusted_authserv_id` set, a roster address's mail that its receiving server could not
authenticate is refused whatever its token (pbp.mail.sender_auth), and so is the host's
(pbp.host.authentication).

A mail belongs to one game file (its *home*: the game of its first block the sender plays
in, else a game id in the subject, else the sender's newest game) and everything it causes
— accepted orders, the reply in the outbox, its identity (key, sha256, Message-ID) —
is committed there in one durable write. Judging happens before that write, so a mail
that makes the engine fail leaves the file untouched.
"""
from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from email.utils import parseaddr
from typing import Any, Iterator

from pbp.desk import bounces
from pbp.desk.choice import choose_blocks, judged_before, judged_entry
from pbp.game.block_judge import BlockVerdict, judge_block
from pbp.conversations.judge import Delivery, MessageVerdict, free_text_note, judge_message
from pbp.conversations.picks import picks_of_teams
from pbp.conversations.relay import deliver
from pbp.forum.approval_mail import host_mail
from pbp.game.host_contact import tell_host_of_wrong_tokens
from pbp.game.stored import StoredGame, load, record_of
from pbp.host.authentication import unauthenticated_host_mail
from pbp.desk.help import help_facts
from pbp.host.npc_mail import npc_orders_mail
from pbp.mail.limits import listed, quoted
from pbp.storage.inbound_ledger import MailLedger
from pbp.mail.sender_auth import refusal as sender_refusal
from pbp.durable import atomic_storage
from pbp.moderator import Moderator
from pbp.game.order_lines import PLAYER_COMMANDS, stray_orders, stray_orders_note
from pbp.ports import InboundMail, MessageBlock, OrderBlock, Outcome, RenderedMail
from pbp.game.tally import running_tally
from pbp.storage.open_games import outbox_files
from pbp.signups.mail import signup_mail
from pbp.timezones import render_received
from pbp.game.token_guard import TokenGuard


@dataclass
class Decision:
    """What one mail does to its home game, computed before anything is written."""

    outcome: Outcome
    reason: str = ""
    orders: list[dict[str, Any]] = field(default_factory=list)
    reply: RenderedMail | None = None
    reply_kind: str = ""
    token_guard: TokenGuard | None = None
    deliveries: list[Delivery] = field(default_factory=list)  # accepted messages, relayed on commit
    judged: list[str] = field(default_factory=list)  # the blocks judged for the home game (block_choice.judged_entry)


class Desk:
    def __init__(self, moderator: Moderator):
        self.moderator = moderator
        self.folder = moderator.folder
        self.ledger = MailLedger(moderator.folder, moderator.clock)
        self._members: dict[str, list[str]] | None = None
        self._member_games: tuple[str, ...] = ()

    def already_handled(self, key: str, sha256: str) -> Outcome | None:
        return self.ledger.already_handled(key, sha256)

    def get_ready(self) -> None:
        """Learn who plays where, and compile the receipt's templates for the rulesets
        played (OrderDesk.get_ready)."""
        self.games_of("")
        rulesets = {record_of(self.folder.game(game_id)).ruleset for game_id in self.folder.game_ids()}
        for ruleset in sorted(rulesets):
            self.moderator.renderer.compile("receipt", ruleset)

    # ------------------------------------------------------------------ who plays where
    def games_of(self, address: str) -> list[str]:
        """The games whose roster holds `address`, oldest first."""
        games = tuple(self.folder.game_ids())
        if self._members is None or games != self._member_games:
            members: dict[str, list[str]] = {}
            for game_id in games:
                for player in record_of(self.folder.game(game_id)).roster:
                    members.setdefault(player.email, []).append(game_id)
            self._members, self._member_games = members, games
        return self._members.get(address, [])

    def _home_game(self, mail: InboundMail, games: list[str]) -> str:
        blocks: list[OrderBlock | MessageBlock] = [*mail.blocks, *mail.messages]
        for block in blocks:
            if block.game in games:
                return block.game
        words = set(re.findall(r"[A-Za-z0-9_-]+", mail.subject))
        named = [g for g in games if g in words]
        if named:
            return named[-1]
        running = [g for g in games if record_of(self.folder.game(g)).running]
        return (running or games)[-1]

    # ------------------------------------------------------------------ receive
    def receive(self, mail: InboundMail) -> Outcome:
        earlier = self.ledger.earlier(mail)
        if earlier is not None:
            return earlier
        if mail.bounce is not None:  # a delivery status notification: noted, never answered
            filed = bounces.file_bounce(self.moderator, mail)
            if filed is not None:
                file, reason = filed
                return self.ledger.record_refused(mail, reason, file)
        # The host's orders for an NPC, then APPROVE by mail (docs/design.md: The host's view, Public posts),
        # once the host's address passes the same sender authentication as a player's
        from_host = unauthenticated_host_mail(self.moderator, self.ledger, mail, self.may_reply)
        if from_host is None:
            from_host = npc_orders_mail(self.moderator, self.ledger, mail, self.may_reply)
        if from_host is None:
            from_host = host_mail(self.moderator, self.ledger, mail, self.may_reply)
        if from_host is not None:
            return from_host
        signup = signup_mail(self.moderator, self.ledger, mail, self.may_reply)  # JOIN, WATCH, CONFIRM …
        if signup is not None:
            return signup
        games = self.games_of(mail.sender) if mail.sender else []
        if not games:
            reason = "From does not hold exactly one address" if mail.sender is None else "unknown sender"
            if mail.no_reply_reason:
                reason = f"{reason}; {mail.no_reply_reason}"
            return self.ledger.record_refused(mail, reason)
        game = load(self.moderator, self._home_game(mail, games))
        decision = self._decide(game, mail)
        self._commit(game, mail, decision)
        return decision.outcome

    def record_quarantine(self, key: str, sha256: str, sender: str, subject: str, reason: str) -> None:
        """Note a mail the ingest quarantined (three failed attempts, unreadable, too big)
        so `pbp status` tells the host; it never reached `receive`. Once per message: a
        crash after the record and before the move makes the next poll note it again."""
        address = parseaddr(sender or "")[1].lower()
        stranger = address and not self.games_of(address) and address != self.moderator.settings.host_address
        self.ledger.record_quarantine(key, sha256, sender, subject, reason, address if stranger else "")

    def _commit(self, game: StoredGame, mail: InboundMail, decision: Decision) -> None:
        """One durable write: orders, reply, reply count, the mail's identity."""
        sender = mail.sender or ""  # a mail reaches its game only from a roster address
        player = game.roster.at(sender)
        file = game.file
        with file.transaction():
            for row in decision.orders:
                file.orders.insert({**row, "message_id": mail.message_id, "mail_key": mail.key})
            if decision.reply is not None and self.may_reply(game, sender):
                self.moderator.outbox.queue(
                    file, phase=game.filed_phase, recipient=player.name,
                    address=player.email, kind=decision.reply_kind, mail=decision.reply,
                    in_reply_to=mail.message_id, references=mail.references)
            if decision.token_guard is not None:
                decision.token_guard.save(file)
                if decision.token_guard.newly_over_limit:
                    tell_host_of_wrong_tokens(self.moderator, game, decision.token_guard)
            for delivery in decision.deliveries:
                deliver(self.moderator, game, delivery, mail.message_id)
            row = self.ledger.record(file, mail, decision.outcome, decision.reason, decision.judged)
        self.ledger.remember(row)

    def may_reply(self, game: StoredGame, address: str) -> bool:
        """The replies-per-sender-per-day cap (loop and flood guard); counts the reply."""
        day = self.moderator.clock().date().isoformat()
        rows = game.file.replies.where("sender", address, lambda row: row["day"] == day)
        count = rows[0]["count"] if rows else 0
        if count >= self.moderator.settings.replies_per_sender_per_day:
            return False
        if rows:
            game.file.replies.update({"count": count + 1}, doc_ids=[rows[0].doc_id])
        else:
            game.file.replies.insert({"sender": address, "day": day, "count": 1})
        return True

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Group many `receive` calls into one durable write per file (the ingest of a
        fetched batch). Each mail still lands whole in one file, so a crash while the
        batch is written leaves every mail either fully recorded or not at all; mail
        not yet recorded is simply received again."""
        try:
            with contextlib.ExitStack() as stack:
                stack.enter_context(atomic_storage(self.folder.registry).transaction())
                for game in self.folder.games():
                    stack.enter_context(game.transaction())
                for _key, file in outbox_files(self.folder):  # games open for sign-ups
                    stack.enter_context(file.transaction())
                yield
        except BaseException:  # in the batch, or in its write when the transactions end
            self.ledger.forget()  # the ledger may hold mail that was never written
            raise

    # ------------------------------------------------------------------ judging
    def _decide(self, game: StoredGame, mail: InboundMail) -> Decision:
        if mail.no_reply_reason:
            return Decision("rejected", reason=f"not answered: {mail.no_reply_reason}")
        sender = mail.sender or ""  # a mail reaches its game only from a roster address
        name = game.roster.at(sender).name
        trusted_id = self.moderator.settings.trusted_authserv_id
        refused = sender_refusal(mail.authentication_results, sender, trusted_id) if trusted_id else None
        if refused:
            return self._refused_sender(game, name, refused)
        if mail.blocks or mail.messages:
            return self._decide_blocks(game, name, mail)
        stray = stray_orders(mail.stray, game.rules.card)
        if stray and not (mail.commands and mail.commands[0].split()[0] in PLAYER_COMMANDS):
            return self._refuse_stray_orders(game, name, stray)
        if mail.commands:
            return self._decide_command(game, name, mail.commands[0])
        if mail.problems:
            return self._refuse_unread(game, name, mail.problems)
        return Decision("rejected", reason="no order block", reply_kind="help",
                        reply=self._help(game, name, "I found no order block in your mail, so nothing changed."))

    def _refuse_unread(self, game: StoredGame, name: str, problems: tuple[str, ...]) -> Decision:
        """A mail whose blocks could not be read (no END ORDERS, a bad BEGIN line, an
        unreadable mail): nothing was accepted, and the reply says why."""
        sections = [*listed(problems), self._still_stands(game, name, some_accepted=False)]
        reply = self._receipt(game, name, "Orders NOT accepted", sections)
        return Decision("rejected", reason="no readable order block", reply=reply, reply_kind="rejection")

    def _receipt(self, game: StoredGame, name: str, headline: str, sections: list[str]) -> RenderedMail:
        return self.moderator.renderer.render(
            "receipt", game.record.ruleset, game=game.game_facts(), player=name,
            phase=game.filed_phase, headline=headline, sections=sections, form=game.form(name))

    def _refused_sender(self, game: StoredGame, name: str, why: str) -> Decision:
        """The second lock (pbp.mail.sender_auth): told to the roster address, nothing changes."""
        text = (f"A mail from your address was not accepted: {why}. Nothing in it was read, whatever its "
                "token. If you sent it, send it again from your usual mail account; if this goes on, "
                "tell the host.")
        reply = self.moderator.renderer.render(
            "receipt", game.record.ruleset, game=game.game_facts(), player=name,
            phase=game.filed_phase, headline="Mail NOT accepted", sections=[text],
            form=game.form(name))
        return Decision("rejected", reason=f"sender not authenticated: {why}", reply=reply, reply_kind="rejection")

    def _decide_blocks(self, game: StoredGame, name: str, mail: InboundMail) -> Decision:
        sender = mail.sender or ""  # a mail reaches its game only from a roster address
        games = self.games_of(sender)
        guard = TokenGuard(game.file, sender, self.moderator.clock().date(),
                           self.moderator.settings.wrong_tokens_per_sender_per_day)
        now = self.moderator.clock()
        token = game.token(name)
        choice = choose_blocks(mail.blocks, lambda phase: judged_before(game.file, sender, phase),
                               lambda block: block.game == game.id and (block.token or "").strip() == token)
        verdicts = [judge_block(game, name, games, guard, block, now) for block in choice.blocks]
        accepted_orders = {v.order_row["player"]: v.order_row["text"] for v in verdicts if v.order_row}
        messages: list[MessageVerdict] = []
        for block in mail.messages:  # each accepted message counts against the cap of the next
            messages.append(judge_message(game, name, games, guard, block, now,
                                          self.moderator.settings.replies_per_sender_per_day, accepted_orders,
                                          sent_in_mail=sum(1 for verdict in messages if verdict.accepted)))
        every: list[BlockVerdict | MessageVerdict] = [*verdicts, *messages]
        accepted = [v for v in every if v.accepted]
        rejected = [v for v in every if not v.accepted and v.submission]
        # A form sent back unfilled is worth a word only when nothing else in the mail was
        # meant: a player filling one form of a quoted mail leaves the others empty.
        meant = any(v.submission for v in every)
        sections = [v.text for v in every if v.submission or not meant]
        sections.extend(choice.notes)
        if accepted_orders:  # a team settling an order together sees where it stands
            sections.extend(p for p in picks_of_teams(game, name, accepted_orders) if not any(p in t for t in sections))
        if mail.problems:
            sections.append("Also:\n" + "\n".join(listed(mail.problems)))
        stray = stray_orders(mail.stray, game.rules.card)
        if stray:
            sections.append(stray_orders_note(stray))
        elif mail.free_text:
            sections.append(free_text_note(game.id))
        if rejected:
            sections.append(self._still_stands(game, name, bool(accepted)))
        what = ("Orders received", "Orders NOT accepted") if mail.blocks else ("Message sent", "Message NOT sent")
        outcome: Outcome
        if accepted:
            outcome, kind, headline = "processed", "receipt", what[0]
        elif rejected:
            outcome, kind, headline = "rejected", "rejection", what[1]
        else:
            outcome, kind, headline = "processed", "form", "Your order form"
        if guard.unanswered:  # wrong tokens past the day's limit: forged mail must not flood the player
            return Decision(outcome, reason=f"{len(rejected)} rejected: wrong tokens past the daily limit, "
                                            "not answered", token_guard=guard)
        reply = self._receipt(game, name, headline, sections)
        judged = [judged_entry(block) for block in choice.blocks if block.game == game.id and block.has_orders]
        return Decision(outcome, reason=f"{len(accepted)} accepted, {len(rejected)} rejected",
                        orders=[v.order_row for v in verdicts if v.order_row and v.accepted], reply=reply,
                        reply_kind=kind,
                        token_guard=guard, deliveries=[v.delivery for v in messages if v.delivery], judged=judged)

    def _refuse_stray_orders(self, game: StoredGame, name: str, stray: list[str]) -> Decision:
        """A mail with no block whose text has order lines: nothing was taken, and the reply
        says so first, then gives the form to use."""
        phase = game.record.phase_id
        for_what = game.rules.card.phase_words(phase) if phase else f"game {game.id}"
        sections = [f"Your mail has no order block, so no orders were accepted for {for_what}.",
                    stray_orders_note(stray),
                    self._still_stands(game, name, some_accepted=False)]
        reply = self._receipt(game, name, "Orders NOT accepted", sections)
        return Decision("rejected", reason="orders outside a block", reply=reply, reply_kind="rejection")

    def _still_stands(self, game: StoredGame, name: str, some_accepted: bool) -> str:
        if some_accepted:
            return ("Nothing from the blocks that were not accepted was used; the orders accepted above "
                    "are the ones that count.")
        phase = game.record.phase_id
        earlier = game.latest_order(phase, name) if phase else None
        if earlier:
            return (f"Nothing from this mail was accepted; your earlier orders "
                    f"(received {render_received(earlier['received'], game.zone_of(name))}) still stand.")
        for_what = game.rules.card.phase_words(phase) if phase else "this game"
        return f"Nothing from this mail was accepted; you have no accepted orders for {for_what} yet."

    # ------------------------------------------------------------------ commands
    def _decide_command(self, game: StoredGame, name: str, command: str) -> Decision:
        word = command.split()[0].upper() if command.split() else ""
        renderer = self.moderator.renderer
        facts = dict(game=game.game_facts(), player=name, form=game.form(name))
        if word == "FORM":
            reply = renderer.render("receipt", game.record.ruleset, phase=game.filed_phase,
                                    headline="Your order form",
                                    sections=["Here is your current order form and token."], **facts)
            return Decision("processed", reason="FORM", reply=reply, reply_kind="form")
        if word == "STATUS":
            phase = game.record.phase_id
            latest = game.latest_order(phase, name) if phase else None
            accepted = ({"received": render_received(latest["received"], game.zone_of(name)), "lines": latest["text"].splitlines()}
                        if latest else None)
            reply = renderer.render("status_reply", game.record.ruleset, phase=phase,
                                    deadline=game.deadline_text(name), accepted=accepted,
                                    tally=running_tally(game),
                                    view=game.rules.view(game.state, name), **facts)
            return Decision("processed", reason="STATUS", reply=reply, reply_kind="status")
        note = "" if word == "HELP" else (f"I did not understand {quoted(command, 30)!r}; here is the help. "
                                          + free_text_note(game.id))
        return Decision("processed", reason=word or "HELP", reply=self._help(game, name, note), reply_kind="help")

    def _help(self, game: StoredGame, name: str, note: str) -> RenderedMail:
        return self.moderator.renderer.render("help", game.record.ruleset, game=game.game_facts(),
                                              player=name, note=note, form=game.form(name), token=game.token(name),
                                              **help_facts(game.rules, game.phase, name, game.record.npcs))
