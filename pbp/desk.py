"""The order desk: judges one inbound mail and records the result (pbp.ports.OrderDesk;
docs/design.md: Order mail format, Reliability rules — Identity, Loops).

Identity is the roster address in From (the mail side hands exactly one, or None) AND the
player's token in the block; Reply-To plays no part. Every answer goes to the roster
address. Mail from an address on no roster gets no answer (no backscatter) and is recorded
for `pbp status`; mail the loop rules forbid answering gets no answer either. A bounce
for a player's address is filed with that player's game (pbp.bounces). With
`trusted_authserv_id` set, a roster address's mail that its receiving server could not
authenticate is refused whatever its token (pbp.mail.sender_auth).

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
from typing import Iterator

from engine.core import OrderBlockError
from pbp import bounces, schedule
from pbp.forum import hooks as forum_hooks
from pbp.games import Loaded, load
from pbp.host.help import help_facts
from pbp.limits import listed, quoted
from pbp.mail.sender_auth import refusal as sender_refusal
from pbp.moderator import Moderator
from pbp.ports import InboundMail, OrderBlock, Outcome
from pbp.rendering import RenderedMail
from pbp.strangers import StrangerLog
from pbp.timezones import render_timestamp
from pbp.token_guard import TokenGuard


@dataclass
class Decision:
    """What one mail does to its home game, computed before anything is written."""

    outcome: Outcome
    reason: str = ""
    orders: list[dict] = field(default_factory=list)
    reply: RenderedMail | None = None
    reply_kind: str = ""
    accepted_phase: str = ""
    token_guard: TokenGuard | None = None


@dataclass(frozen=True)
class BlockVerdict:
    accepted: bool
    text: str
    submission: bool = True  # False: a form sent back with nothing filled in
    order_row: dict | None = None


class Desk:
    def __init__(self, moderator: Moderator):
        self.moderator = moderator
        self.folder = moderator.folder
        self._handled: dict[str, Outcome] | None = None  # "k:<key>", "s:<sha>", "m:<sender> <msgid>"
        self._members: dict[str, list[str]] | None = None
        self._member_games: tuple[str, ...] = ()

    # ------------------------------------------------------------------ identity of mails
    def _index(self) -> dict[str, Outcome]:
        if self._handled is None:
            index: dict[str, Outcome] = {}
            rows = list(self.folder.mails.all()) + StrangerLog(self.folder).recent_rows()
            for game in self.folder.games():
                rows.extend(game.mails.all())
            for row in rows:
                self._remember(index, row)
            self._handled = index
        return self._handled

    @staticmethod
    def _remember(index: dict, row: dict) -> None:
        index[f"k:{row['key']}"] = row["outcome"]
        index[f"s:{row['sha256']}"] = row["outcome"]
        if row.get("message_id"):
            index[f"m:{row.get('sender', '')} {row['message_id']}"] = row["outcome"]

    def already_handled(self, key: str, sha256: str) -> Outcome | None:
        index = self._index()
        return index.get(f"k:{key}") or index.get(f"s:{sha256}")

    def _earlier(self, mail: InboundMail) -> Outcome | None:
        """The outcome of this mail if it was handled before: the same message on the server
        (key), the same bytes (SHA-256), or the same Message-ID from the same sender (one
        mail delivered twice, each copy with its own trace headers). A Message-ID counts
        only with its sender: another address that reuses it is judged on its own."""
        earlier = self.already_handled(mail.key, mail.sha256)
        if earlier is None and mail.message_id:
            earlier = self._index().get(f"m:{mail.sender or ''} {mail.message_id}")
        return earlier

    # ------------------------------------------------------------------ who plays where
    def games_of(self, address: str) -> list[str]:
        """The games whose roster holds `address`, oldest first."""
        games = tuple(self.folder.game_ids())
        if self._members is None or games != self._member_games:
            members: dict[str, list[str]] = {}
            for game_id in games:
                for entry in self.folder.game(game_id).record()["roster"]:
                    members.setdefault(entry["email"], []).append(game_id)
            self._members, self._member_games = members, games
        return self._members.get(address, [])

    def _home_game(self, mail: InboundMail, games: list[str]) -> str:
        for block in mail.blocks:
            if block.game in games:
                return block.game
        words = set(re.findall(r"[A-Za-z0-9_-]+", mail.subject))
        named = [g for g in games if g in words]
        if named:
            return named[-1]
        running = [g for g in games if self.folder.game(g).record()["phase_id"]]
        return (running or games)[-1]

    # ------------------------------------------------------------------ receive
    def receive(self, mail: InboundMail) -> Outcome:
        earlier = self._earlier(mail)
        if earlier is not None:
            return earlier
        if mail.bounce is not None:  # a delivery status notification: noted, never answered
            filed = bounces.file_bounce(self.moderator, mail)
            if filed is not None:
                return self._record_in(*filed, mail)
        from_host = forum_hooks.host_mail(self, mail)  # APPROVE by mail (docs/design.md: Public posts)
        if from_host is not None:
            return from_host
        games = self.games_of(mail.sender) if mail.sender else []
        if not games:
            reason = "From does not hold exactly one address" if mail.sender is None else "unknown sender"
            if mail.no_reply_reason:
                reason = f"{reason}; {mail.no_reply_reason}"
            return self._record_without_game(mail, reason)
        game = load(self.moderator, self._home_game(mail, games))
        decision = self._decide(game, mail)
        self._commit(game, mail, decision)
        return decision.outcome

    def record_quarantine(self, key: str, sha256: str, sender: str, subject: str, reason: str) -> None:
        """Note a mail the ingest quarantined (three failed attempts, unreadable, too big)
        so `pbp status` tells the host; it never reached `receive`. Once per message: a
        crash after the record and before the move makes the next poll note it again."""
        if f"k:{key}" in self._index():
            return
        row = {"key": key, "sha256": sha256, "message_id": "", "sender": sender or "",
               "subject": subject[:200], "outcome": "quarantine", "reason": reason,
               "received": schedule.to_text(self.moderator.clock())}
        address = parseaddr(sender or "")[1].lower()
        if address and not self.games_of(address) and address != forum_hooks.host_address(self.moderator.settings):
            row["sender"] = address
            StrangerLog(self.folder).note(row)  # an outsider's mail is only counted (bounded)
        else:
            self.folder.mails.insert(row)
        self._remember(self._index(), row)

    def _record_in(self, file, reason: str, mail: InboundMail) -> Outcome:
        row = self._mail_row(mail, "rejected", reason)
        with file.transaction():
            file.mails.insert(row)
        self._remember(self._index(), row)
        return "rejected"

    def _record_without_game(self, mail: InboundMail, reason: str) -> Outcome:
        """Mail that belongs to no game is counted in the bounded summary (pbp.strangers)."""
        row = self._mail_row(mail, "rejected", reason)
        StrangerLog(self.folder).note(row)
        self._remember(self._index(), row)
        return "rejected"

    def _mail_row(self, mail: InboundMail, outcome: Outcome, reason: str) -> dict:
        return {"key": mail.key, "sha256": mail.sha256, "message_id": mail.message_id,
                "sender": mail.sender or "", "subject": mail.subject[:200], "outcome": outcome,
                "reason": reason, "received": schedule.to_text(self.moderator.clock())}

    def _commit(self, game: Loaded, mail: InboundMail, decision: Decision) -> None:
        """One durable write: orders, reply, reply count, the mail's identity."""
        entry = game.player(mail.sender)
        file = game.file
        with file.transaction():
            for row in decision.orders:
                file.orders.insert({**row, "message_id": mail.message_id, "mail_key": mail.key})
            if decision.reply is not None and self._may_reply(game, mail.sender):
                self.moderator.outbox.queue(
                    file, phase=game.record["phase_id"] or "over", recipient=entry["name"],
                    address=entry["email"], kind=decision.reply_kind, mail=decision.reply,
                    in_reply_to=mail.message_id, references=mail.references)
            if decision.token_guard is not None:
                decision.token_guard.save(file)
                if decision.token_guard.newly_locked:
                    forum_hooks.tell_host_of_wrong_tokens(self.moderator, game, decision.token_guard)
            row = self._mail_row(mail, decision.outcome, decision.reason)
            file.mails.insert(row)
        self._remember(self._index(), row)

    def _may_reply(self, game: Loaded, address: str) -> bool:
        """The replies-per-sender-per-day cap (loop and flood guard); counts the reply."""
        day = self.moderator.clock().date().isoformat()
        rows = game.file.replies.search(lambda r: r["sender"] == address and r["day"] == day)
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
        with contextlib.ExitStack() as stack:
            stack.enter_context(self.folder.registry.storage.transaction())
            for game in self.folder.games():
                stack.enter_context(game.transaction())
            try:
                yield
            except BaseException:
                self._handled = None  # the index may hold mail that was never written
                raise

    # ------------------------------------------------------------------ judging
    def _decide(self, game: Loaded, mail: InboundMail) -> Decision:
        if mail.no_reply_reason:
            return Decision("rejected", reason=f"not answered: {mail.no_reply_reason}")
        entry = game.player(mail.sender)
        name = entry["name"]
        trusted_id = self.moderator.settings.trusted_authserv_id
        refused = sender_refusal(mail.authentication_results, mail.sender, trusted_id) if trusted_id else None
        if refused:
            return self._refused_sender(game, name, refused)
        if mail.blocks:
            return self._decide_blocks(game, name, mail)
        if mail.commands:
            return self._decide_command(game, name, mail.commands[0])
        if mail.problems:
            return self._refuse_unread(game, name, mail.problems)
        return Decision("rejected", reason="no order block", reply_kind="help",
                        reply=self._help(game, name, "I found no order block in your mail, so nothing changed."))

    def _refuse_unread(self, game: Loaded, name: str, problems: tuple[str, ...]) -> Decision:
        """A mail whose blocks could not be read (no END ORDERS, a bad BEGIN line, an
        unreadable mail): nothing was accepted, and the reply says why."""
        sections = [*listed(problems), self._still_stands(game, name, some_accepted=False)]
        reply = self._receipt(game, name, "Orders NOT accepted", sections)
        return Decision("rejected", reason="no readable order block", reply=reply, reply_kind="rejection")

    def _receipt(self, game: Loaded, name: str, headline: str, sections: list[str]) -> RenderedMail:
        return self.moderator.renderer.render(
            "receipt", game.record["ruleset"], game=game.game_facts(), player=name,
            phase=game.record["phase_id"] or "over", headline=headline, sections=sections, form=game.form(name))

    def _refused_sender(self, game: Loaded, name: str, why: str) -> Decision:
        """The second lock (pbp.mail.sender_auth): told to the roster address, nothing changes."""
        text = (f"A mail from your address was not accepted: {why}. Nothing in it was read, whatever its "
                "token. If you sent it, send it again from your usual mail account; if this goes on, "
                "tell the host.")
        reply = self.moderator.renderer.render(
            "receipt", game.record["ruleset"], game=game.game_facts(), player=name,
            phase=game.record["phase_id"] or "over", headline="Mail NOT accepted", sections=[text],
            form=game.form(name))
        return Decision("rejected", reason=f"sender not authenticated: {why}", reply=reply, reply_kind="rejection")

    def _decide_blocks(self, game: Loaded, name: str, mail: InboundMail) -> Decision:
        games = self.games_of(mail.sender)
        guard = TokenGuard(game.file, mail.sender, self.moderator.clock().date(),
                           self.moderator.settings.wrong_tokens_per_sender_per_day)
        verdicts = [self._judge_block(game, name, games, guard, block) for block in mail.blocks]
        accepted = [v for v in verdicts if v.accepted]
        rejected = [v for v in verdicts if not v.accepted and v.submission]
        sections = [v.text for v in verdicts]
        if mail.problems:
            sections.append("Also:\n" + "\n".join(listed(mail.problems)))
        if rejected:
            sections.append(self._still_stands(game, name, bool(accepted)))
        if accepted:
            outcome, kind, headline = "processed", "receipt", "Orders received"
        elif rejected:
            outcome, kind, headline = "rejected", "rejection", "Orders NOT accepted"
        else:
            outcome, kind, headline = "processed", "form", "Your order form"
        reply = self._receipt(game, name, headline, sections)
        return Decision(outcome, reason=f"{len(accepted)} accepted, {len(rejected)} rejected",
                        orders=[v.order_row for v in accepted], reply=reply, reply_kind=kind, token_guard=guard)

    def _still_stands(self, game: Loaded, name: str, some_accepted: bool) -> str:
        if some_accepted:
            return ("Nothing from the blocks that were not accepted was used; the orders accepted above "
                    "are the ones that count.")
        phase = game.record["phase_id"]
        earlier = game.latest_order(phase, name) if phase else None
        if earlier:
            return (f"Nothing from this mail was accepted; your earlier orders "
                    f"(received {render_timestamp(earlier['received'])}) still stand.")
        return f"Nothing from this mail was accepted; you have no accepted orders for {phase or 'this game'} yet."

    def _judge_block(self, game: Loaded, name: str, games: list[str], guard: TokenGuard,
                     block: OrderBlock) -> BlockVerdict:
        """One block: identity, phase, then the engine's parse (docs/design.md: Order mail
        format — a block for another phase, a closed phase, a dead player or with a wrong
        token is rejected with a reason). `games` are the sender's games; `guard` counts their
        wrong tokens, and once they have used up today's tries refuses the block unread."""
        record = game.record
        head = f"Your block for {quoted(block.game, 30)} {quoted(block.phase, 30)}"
        if block.game != game.id:
            if block.game not in games:
                return BlockVerdict(False, f"{head} was not accepted: you play in no game called "
                                           f"{quoted(block.game, 30)} (your games: {', '.join(games)}). "
                                           "Copy the BEGIN line from your latest order form.")
            return BlockVerdict(False, f"{head} was not accepted: one mail may carry orders for one game "
                                       f"only, and this mail's game is {game.id}. Send orders for {block.game} "
                                       "in a separate reply to a mail of that game.")
        if guard.locked:
            return BlockVerdict(False, f"{head} was not accepted: {self._locked_out(game, guard)}")
        if block.token is None:
            return BlockVerdict(False, f"{head} was not accepted: it has no TOKEN line. Copy the block "
                                       "from your latest form, TOKEN line included.")
        if block.token.strip() != game.token(name):
            guard.note_wrong()
            last = f" {self._locked_out(game, guard)}" if guard.locked else ""
            return BlockVerdict(False, f"{head} was not accepted: the TOKEN is not your token for "
                                       f"{game.id}. Copy it from your latest form, or mail FORM to get it again.{last}")
        if game.phase is None:
            return BlockVerdict(False, f"{head} was not accepted: game {game.id} is over, so no more "
                                       "orders are taken.")
        if block.phase.lower() != game.phase.id.lower():
            if block.phase in record["resolved"]:
                why = f"phase {block.phase} is closed (already resolved)"
            else:
                why = f"there is no open phase {quoted(block.phase, 30)}"
            return BlockVerdict(False, f"{head} was not accepted: {why}; the current phase is "
                                       f"{game.phase.id} (its form is below).")
        if name not in game.phase.actors:
            if not game.rules.status(game.state, name).alive:
                why = f"you are dead: your character {name} has died, and the dead give no orders"
            else:
                why = f"you have no orders to give in {game.phase.id}"
            return BlockVerdict(False, f"{head} was not accepted: {why}.")
        if not block.has_orders:
            return BlockVerdict(False, f"Your reply held the form for {game.phase.id} with no order "
                                       "filled in, so nothing changed. To give orders, write them "
                                       "inside the block (delete the # in front of an order).",
                                submission=False)
        try:
            orders = game.rules.parse_orders(game.state, name, list(block.lines))
        except OrderBlockError as failure:
            errors = [str(e.moved(block.first_line_number - 1, quoted(e.text))) for e in failure.errors]
            listing = "\n".join(listed(errors))
            grammar = ", ".join(s.syntax for s in game.phase.grammar.get(name, ()))
            return BlockVerdict(False, f"{head} was not accepted:\n{listing}\n"
                                       f"Orders you can give in {game.phase.id}: {grammar}")
        canonical = [str(order) for order in orders]
        received = schedule.to_text(self.moderator.clock())
        row = {"phase": game.phase.id, "player": name, "text": "\n".join(canonical),
               "received": received, "message_id": "", "mail_key": ""}
        shown = "\n".join(f"  {line}" for line in canonical) or "  (no orders: the rules' default applies)"
        return BlockVerdict(True, f"Accepted for {game.phase.id} (received {render_timestamp(received)}):\n"
                                  f"{shown}\nThese replace any orders you sent earlier for this phase.",
                            order_row=row)

    @staticmethod
    def _locked_out(game: Loaded, guard: TokenGuard) -> str:
        return (f"your address has sent {guard.limit} wrong tokens for {game.id} today, so its order blocks "
                "are refused unread until 00:00 UTC. Mail FORM to get your token again.")

    # ------------------------------------------------------------------ commands
    def _decide_command(self, game: Loaded, name: str, command: str) -> Decision:
        word = command.split()[0].upper() if command.split() else ""
        renderer = self.moderator.renderer
        facts = dict(game=game.game_facts(), player=name, form=game.form(name))
        if word == "FORM":
            reply = renderer.render("receipt", game.record["ruleset"], phase=game.record["phase_id"] or "over",
                                    headline="Your order form",
                                    sections=["Here is your current order form and token."], **facts)
            return Decision("processed", reason="FORM", reply=reply, reply_kind="form")
        if word == "STATUS":
            phase = game.record["phase_id"]
            latest = game.latest_order(phase, name) if phase else None
            accepted = ({"received": render_timestamp(latest["received"]), "lines": latest["text"].splitlines()}
                        if latest else None)
            reply = renderer.render("status_reply", game.record["ruleset"], phase=phase,
                                    deadline=game.deadline_text(name), accepted=accepted,
                                    view=game.rules.view(game.state, name), **facts)
            return Decision("processed", reason="STATUS", reply=reply, reply_kind="status")
        note = "" if word == "HELP" else f"I did not understand {quoted(command, 30)!r}; here is the help."
        return Decision("processed", reason=word or "HELP", reply=self._help(game, name, note), reply_kind="help")

    def _help(self, game: Loaded, name: str, note: str) -> RenderedMail:
        return self.moderator.renderer.render("help", game.record["ruleset"], game=game.game_facts(),
                                              player=name, note=note, form=game.form(name),
                                              **help_facts(game.rules, game.phase, name))
