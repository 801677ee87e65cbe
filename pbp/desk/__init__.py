"""The order desk: judges one inbound mail and records the result (pbp.ports.OrderDesk;
docs/design.md: Order mail format, The desk's chain, Reliability rules — Identity, Loops).

A mail passes down the declared chain of named handlers (pbp.desk.chain.CHAIN) until one
answers it; the last, a player's mail for their game, is judged by pbp.desk.judging and
committed here.

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
from dataclasses import replace
from email.utils import parseaddr
from typing import Iterator

from pbp.conversations.relay import deliver
from pbp.desk.chain import CHAIN
from pbp.desk.decision import Decision
from pbp.desk.judging import GameMailJudge
from pbp.game.notifying.host_contact import tell_host_of_wrong_tokens
from pbp.game.notifying.reply_cap import may_reply
from pbp.game.stored import StoredGame, load, record_of, save
from pbp.durable import atomic_storage
from pbp.moderator import Moderator
from pbp.ports import InboundMail, MessageBlock, OrderBlock, Outcome
from pbp.storage.mail_ledger import MailLedger
from pbp.storage.open_games import outbox_files


class Desk:
    def __init__(self, moderator: Moderator):
        self.moderator = moderator
        self.folder = moderator.folder
        self.ledger = MailLedger(moderator.folder, moderator.clock)
        self.judge = GameMailJudge(moderator)
        self._members: dict[str, list[str]] | None = None
        self._member_games: tuple[str, ...] = ()

    def already_handled(self, key: str, sha256: str) -> Outcome | None:
        return self.ledger.already_handled(key, sha256)

    def get_ready(self) -> None:
        """Learn who plays where, and compile the receipt's templates for the rulesets
        played (OrderDesk.get_ready)."""
        self.games_of("")
        rulesets = {
            record_of(self.folder.game(game_id)).ruleset for game_id in self.folder.game_ids()
        }
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
        """Pass `mail` down the chain (pbp.desk.chain.CHAIN) until a handler answers it."""
        for handler in CHAIN:
            outcome = handler.handle(self, mail)
            if outcome is not None:
                return outcome
        raise AssertionError("the chain ends in a handler that answers every mail")

    def answer_game_mail(self, mail: InboundMail, games: list[str]) -> Outcome:
        """The chain's last link: judge the mail for its home game among the sender's
        `games`, then commit what it does."""
        game = load(self.moderator, self._home_game(mail, games))
        decision = self.judge.decide(game, mail, games)
        self._commit(game, mail, decision)
        return decision.outcome

    def record_quarantine(
        self, key: str, sha256: str, sender: str, subject: str, reason: str
    ) -> None:
        """Note a mail the ingest quarantined (three failed attempts, unreadable, too big)
        so `pbp status` tells the host; it never reached `receive`. Once per message: a
        crash after the record and before the move makes the next poll note it again."""
        address = parseaddr(sender or "")[1].lower()
        stranger = (
            address
            and not self.games_of(address)
            and address != self.moderator.settings.host_address
        )
        self.ledger.record_quarantine(
            key, sha256, sender, subject, reason, address if stranger else ""
        )

    def _commit(self, game: StoredGame, mail: InboundMail, decision: Decision) -> None:
        """One durable write: orders, reply, reply count, the mail's identity."""
        sender = mail.sender or ""  # a mail reaches its game only from a roster address
        player = game.roster.at(sender)
        file = game.file
        with file.transaction():
            if decision.language:  # `LANGUAGE de`: stored before the receipt, which is in it
                record = record_of(file)
                reader = replace(record.roster.at(sender), language=decision.language)
                save(game, replace(record, roster=record.roster.with_player(reader)), since=record)
            for order in decision.orders:
                file.orders.insert(
                    replace(order, message_id=mail.message_id, mail_key=mail.key).to_row()
                )
            if decision.reply is not None and self.may_reply(game, sender):
                self.moderator.outbox.queue(
                    file,
                    phase=game.filed_phase,
                    recipient=player.name,
                    address=player.email,
                    kind=decision.reply_kind,
                    mail=decision.reply,
                    in_reply_to=mail.message_id,
                    references=mail.references,
                )
            if decision.token_guard is not None:
                decision.token_guard.save(file)
                if decision.token_guard.newly_over_limit:
                    tell_host_of_wrong_tokens(self.moderator, game, decision.token_guard)
            for delivery in decision.deliveries:
                deliver(self.moderator, game, delivery, mail.message_id)
            row = self.ledger.record(
                file, mail, decision.outcome, decision.reason, decision.judged, decision.refused_by
            )
        self.ledger.remember(row)

    def may_reply(self, game: StoredGame, address: str) -> bool:
        """The replies-per-sender-per-day cap (pbp.game.notifying.reply_cap); counts the
        reply."""
        return may_reply(self.moderator, game.file, address)

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
