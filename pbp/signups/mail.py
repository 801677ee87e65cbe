"""Sign-up mail (docs/design.md: Sign-ups and spectators): `JOIN <game> <name>`
and `LEAVE <game>` for a game open for sign-ups, `WATCH <game>` and `UNWATCH <game>` for a
running game whose option `spectators` is `all`, and `CONFIRM <game> <code>` (the reply to
the confirmation mail) for all four.

Anyone may send these, players of other games and unknown addresses alike, so they are read
before the sender's games are looked up. Each mail is answered once, to its From address,
capped per address per day like every reply; a request changes nothing until it is confirmed
from the address it names (pbp.signups.codes). Mail naming no open or running game is not
answered (no backscatter) and is counted with the unknown senders; an answered address
leaves them. Nothing a sender writes is passed on to anyone.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable

from pbp.game.options import thread_language
from pbp.game.stored import StoredGame, load
from pbp.mail.limits import quoted
from pbp.storage.mail_ledger import MailLedger
from pbp.storage.strangers import StrangerLog
from pbp.moderator import Moderator
from pbp.render.languages import language_problem
from pbp.signups.details import JoinDetails
from pbp.ports import InboundMail, Outcome
from pbp.storage.open_games import OpenGame, find_open_game
from pbp.signups.answers import Answer, Holder, holder_of, refusal, store_changes
from pbp.signups.join_answers import signup_answer
from pbp.signups.watch_answers import watch_answer
from pbp.signups.codes import NEW_ADDRESS_ANSWERS_PER_DAY, waiting_for
from pbp.signups.spectators import OUTSIDE_SEQUENCE
from pbp.signups.substitutes import strike_off
from pbp.mail.signup_words import CONFIRM, SignupCommand, parse_signup

# A record's answers to new addresses today: {day, count}.
NEW_ADDRESSES_KEY = "new_addresses_answered"
KIND = "signup"


def signup_mail(
    moderator: Moderator,
    ledger: MailLedger,
    mail: InboundMail,
    may_reply: Callable[[Any, str], bool],
) -> Outcome | None:
    """Handle a sign-up mail, or return None when the mail holds no sign-up command."""
    command = parse_signup(mail.commands[0]) if mail.commands else None
    if command is None:
        return None
    sender = mail.sender
    if sender is None or mail.no_reply_reason:
        why = "From does not hold exactly one address" if sender is None else mail.no_reply_reason
        return ledger.record_refused(mail, f"{command.word} not answered: {why}")
    open_game = find_open_game(moderator.folder, command.game)
    running = _running_game(moderator, command.game)
    if open_game is not None and (
        command.word in ("JOIN", "LEAVE") or _holds(holder_of(open_game), command)
    ):
        answer = signup_answer(moderator, open_game, command, sender)
        return _commit(moderator, ledger, mail, may_reply, open_game, answer)
    if running is not None and open_game is None and command.word in ("JOIN", "LEAVE"):
        answer = replace(
            refusal("not open for sign-ups", "not_open", running.id),
            language=_running_reader(running, command, sender),
        )
        return _commit(moderator, ledger, mail, may_reply, running, answer)
    if running is not None and command.word in ("WATCH", "UNWATCH", CONFIRM):
        answer = watch_answer(moderator, running, command, sender)
        outcome = _commit(moderator, ledger, mail, may_reply, running, answer)
        # After the watch is stored: `--next` skips watchers meanwhile.
        if answer.leaves_substitutes:
            strike_off(moderator.folder, running.id, sender)
        return outcome
    if open_game is not None:
        answer = signup_answer(moderator, open_game, command, sender)
        return _commit(moderator, ledger, mail, may_reply, open_game, answer)
    return ledger.record_refused(
        mail, f"{command.word} for {quoted(command.game, 30)}, which is no open or running game"
    )


def _running_reader(game: StoredGame, command: SignupCommand, sender: str) -> str:
    """The language a JOIN or LEAVE for a running game is refused in: the JOIN's LANG=, or
    the sender's own as a player, when pbp writes in it; else the thread's."""
    given = JoinDetails.parse(command.argument).language if command.word == "JOIN" else ""
    player = next((p for p in game.record.roster if p.email == sender), None)
    own = given or (player.language if player else "")
    if own and not language_problem(own):
        return own
    return thread_language(game.record.moderator_options)


def _holds(holder: Holder, command: SignupCommand) -> bool:
    return command.word == CONFIRM and command.argument in holder.pending


def _running_game(moderator: Moderator, game_id: str) -> StoredGame | None:
    known = next((k for k in moderator.folder.game_ids() if k.lower() == game_id.lower()), None)
    return load(moderator, known) if known else None


def _commit(
    moderator: Moderator,
    ledger: MailLedger,
    mail: InboundMail,
    may_reply: Callable[[Any, str], bool],
    game: OpenGame | StoredGame,
    answer: Answer,
) -> Outcome:
    """One durable write in the game's (or open game's) file: the record's changes, the
    reply (unless the address used up today's replies), the mail's identity. A mail past
    the bounds on requests (pbp.signups.codes) is only counted with the unknown senders."""
    holder = holder_of(game)
    sender = mail.sender or ""  # signup_mail answers no mail without exactly one sender
    why_not, counted = _left_unanswered(moderator, holder, sender, answer)
    if why_not:
        return ledger.record_refused(mail, why_not)
    file = game.file
    with file.transaction():
        if answer.changes or counted:
            store_changes(game, {**answer.changes, **counted})
        if may_reply(game, sender):
            facts = {"id": holder.id, "ruleset": holder.ruleset}
            reply = moderator.renderer_for(answer.language).render(
                KIND,
                holder.ruleset,
                game=facts,
                name=answer.name,
                answer=answer.verdict,
                code=answer.code,
            )
            moderator.outbox.queue(
                file,
                phase=holder.phase,
                recipient=answer.name or "player",
                address=sender,
                kind=KIND,
                mail=reply,
                in_reply_to=mail.message_id,
                references=mail.references,
                sequence_key=OUTSIDE_SEQUENCE,
            )
        row = ledger.record(file, mail, answer.outcome, answer.reason)
    ledger.remember(row)
    StrangerLog(moderator.folder).forget(sender)
    return answer.outcome


def _left_unanswered(
    moderator: Moderator, holder: Holder, sender: str, answer: Answer
) -> tuple[str, dict[str, Any]]:
    """(why `answer` is not to be sent, a flood's mail, or ""; the record's change that
    counts an answer to an address the game does not know yet)."""
    if answer.unanswered:
        return answer.reason, {}
    now = moderator.clock()
    if sender in holder.known or waiting_for(holder.pending, sender, now):
        return "", {}
    day = now.date().isoformat()
    answered = holder.answered_new
    count = answered.get("count", 0) if answered.get("day") == day else 0
    if count >= NEW_ADDRESS_ANSWERS_PER_DAY:
        return (
            (
                f"{answer.reason}, not answered: {holder.id} answered {count} new addresses today, "
                "the most it answers in a day"
            ),
            {},
        )
    return "", {NEW_ADDRESSES_KEY: {"day": day, "count": count + 1}}
