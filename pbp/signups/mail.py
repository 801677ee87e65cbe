"""Sign-up mail (docs/design.md: Sign-ups; The dead and spectators): `JOIN <game> <name>`
and `LEAVE <game>` for a game open for sign-ups, `WATCH <game>` and `UNWATCH <game>` for a
running game whose option `spectators` is `all`, and `CONFIRM <game> <code>` (the reply to
the confirmation mail) for all four.

Anyone may send these, players of other games and unknown addresses alike, so they are
read before the sender's games are looked up. Each mail is answered once, to its From
address, capped per address per day like every reply; a request changes nothing until it
is confirmed from the address it names (pbp.signups.codes). Mail naming no open or running
game is not answered (no backscatter) and is counted with the unknown senders. Nothing a
sender writes is passed on to anyone.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Mapping

from engine.names import roster_problems
from pbp import schedule
from pbp.game.stored import StoredGame, load, save
from pbp.mail.limits import listed, quoted
from pbp.storage.inbound_ledger import MailLedger
from pbp.moderator import Moderator
from pbp.ports import InboundMail, Outcome
from pbp.storage.open_games import OPEN, OpenGame, find_open_game
from pbp.signups.answers import NEW_ADDRESSES_KEY, Answer, Holder, ask_to_confirm, bad_code, holder_of, refusal
from pbp.signups.codes import NEW_ADDRESS_ANSWERS_PER_DAY, take_request, waiting_for
from pbp.signups.spectators import OUTSIDE_SEQUENCE
from pbp.signups.substitutes import strike_off
from pbp.signups.watching import watch_answer
from pbp.signups.words import CONFIRM, SignupCommand, parse_signup
from pbp.timezones import render_moment

KIND = "signup"


def _store(game: OpenGame | StoredGame, changes: Mapping[str, Any]) -> None:
    """Write an answer's changes: a running game's are fields of its typed record (watchers,
    watch_pending, new_addresses_answered); an open game's are keys of its sign-up record."""
    if isinstance(game, StoredGame):
        save(game, replace(game.record, **changes))
    else:
        game.file.update_record(dict(changes))


def signup_mail(moderator: Moderator, ledger: MailLedger, mail: InboundMail,
                may_reply: Callable[[Any, str], bool]) -> Outcome | None:
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
    if open_game is not None and (command.word in ("JOIN", "LEAVE") or _holds(holder_of(open_game), command)):
        answer = _signup_answer(moderator, open_game, command, sender)
        return _commit(moderator, ledger, mail, may_reply, open_game, answer)
    if running is not None and open_game is None and command.word in ("JOIN", "LEAVE"):
        answer = refusal("not open for sign-ups", f"Game {running.id} is not open for sign-ups: its players were "
                                                  "chosen by the host before it began.")
        return _commit(moderator, ledger, mail, may_reply, running, answer)
    if running is not None and command.word in ("WATCH", "UNWATCH", CONFIRM):
        answer = watch_answer(moderator, running, command, sender)
        outcome = _commit(moderator, ledger, mail, may_reply, running, answer)
        if answer.leaves_substitutes:  # after the watch is stored: `--next` skips watchers meanwhile
            strike_off(moderator.folder, running.id, sender)
        return outcome
    if open_game is not None:
        answer = _signup_answer(moderator, open_game, command, sender)
        return _commit(moderator, ledger, mail, may_reply, open_game, answer)
    return ledger.record_refused(mail, f"{command.word} for {quoted(command.game, 30)}, which is no open or running game")


def _holds(holder: Holder, command: SignupCommand) -> bool:
    return command.word == CONFIRM and command.argument in holder.pending


def _running_game(moderator: Moderator, game_id: str) -> StoredGame | None:
    for known in moderator.folder.game_ids():
        if known.lower() == game_id.lower():
            return load(moderator, known)
    return None


def _commit(moderator: Moderator, ledger: MailLedger, mail: InboundMail, may_reply: Callable[[Any, str], bool],
            game: OpenGame | StoredGame, answer: Answer) -> Outcome:
    """One durable write in the game's (or open game's) file: the record's changes, the
    reply (unless the address used up today's replies), the mail's identity. A mail past
    the bounds on requests (pbp.signups.codes) is only counted with the unknown senders."""
    holder = holder_of(game)
    why_not, counted = _left_unanswered(moderator, holder, mail.sender or "", answer)
    if why_not:
        return ledger.record_refused(mail, why_not)
    file = game.file
    with file.transaction():
        if answer.changes or counted:
            _store(game, {**answer.changes, **counted})
        if may_reply(game, mail.sender):
            facts = {"id": holder.id, "ruleset": holder.ruleset}
            reply = moderator.renderer.render(KIND, holder.ruleset, game=facts, name=answer.name,
                                              headline=answer.headline, lines=answer.lines, confirm=answer.confirm)
            moderator.outbox.queue(file, phase=holder.phase, recipient=answer.name or "player",
                                   address=mail.sender, kind=KIND, mail=reply, in_reply_to=mail.message_id,
                                   references=mail.references, sequence_key=OUTSIDE_SEQUENCE)
        row = ledger.record(file, mail, answer.outcome, answer.reason)
    ledger.remember(row)
    return answer.outcome


def _left_unanswered(moderator: Moderator, holder: Holder, sender: str,
                     answer: Answer) -> tuple[str, dict[str, Any]]:
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
        return (f"{answer.reason}, not answered: {holder.id} answered {count} new addresses today, "
                "the most it answers in a day"), {}
    return "", {NEW_ADDRESSES_KEY: {"day": day, "count": count + 1}}



def _signup_answer(moderator: Moderator, game: OpenGame, command: SignupCommand, sender: str) -> Answer:
    record = game.record
    game_id, now = record["id"], schedule.to_text(moderator.clock())
    entries = record["entries"]
    mine = next((e for e in entries if e["email"] == sender), None)
    if record["status"] != OPEN:
        return refusal("sign-ups closed", f"Game {game_id} has started, so its sign-ups are closed.")
    if command.word == "JOIN":
        name = command.argument.strip()
        if mine is not None:
            return refusal("already signed up", f"You are signed up for {game_id} already, as {mine['name']}; "
                                                f"to withdraw, mail LEAVE {game_id}.", mine["name"])
        if not name:
            return refusal("JOIN without a name", f"Write the name you want to play under after the game, "
                                                  f"for example: JOIN {game_id} Alice.")
        problems = roster_problems([e["name"] for e in entries] + [name])
        if problems:
            return Answer("rejected", "name refused", "Nothing changed",
                          [f"The name {quoted(name, 30)!r} cannot be used in {game_id}; choose another and mail "
                           f"JOIN {game_id} <name> again:", *(f"- {p}" for p in listed(problems))])
        return ask_to_confirm(holder_of(game), "join", sender, name, now,
                              f"Confirm your sign-up for {game_id}",
                              [f"You asked to play in game {game_id} ({record['ruleset']}) as {name}.",
                                f"Sign-ups close {render_moment(record['closes'])}."])
    if command.word == "LEAVE":
        if mine is None:
            return refusal("LEAVE without a sign-up", f"You are not signed up for {game_id}, so there is nothing "
                                                      "to withdraw.")
        return ask_to_confirm(holder_of(game), "leave", sender, mine["name"], now,
                              f"Confirm that you leave {game_id}",
                              [f"You asked to withdraw your sign-up for game {game_id} ({mine['name']})."])
    if command.word == CONFIRM:
        request, pending = take_request(record.get("pending", {}), command.argument, sender, moderator.clock())
        if request is None:
            return bad_code(game_id, "JOIN or LEAVE")
        if request["action"] == "leave":
            kept = [e for e in entries if e["email"] != sender]
            return Answer("processed", "left", f"You have left {game_id}",
                          [f"Your sign-up for {game_id} is withdrawn. To sign up again, mail JOIN {game_id} <name>."],
                          changes={"pending": pending, "entries": kept}, name=request["name"])
        problems = roster_problems([e["name"] for e in entries] + [request["name"]])
        if mine is not None or problems:
            why = (f"you are signed up already, as {mine['name']}" if mine is not None
                   else "; ".join(listed(problems)))
            return Answer("rejected", "confirmation refused", "Nothing changed",
                          [f"Your sign-up for {game_id} could not be confirmed: {why}. Mail JOIN {game_id} <name> "
                           "with another name."], changes={"pending": pending})
        entry = {"name": request["name"], "email": sender, "joined": now}
        place = len(entries) + 1
        if place <= record["players_max"]:
            where = (f"You are signed up for {game_id} as {request['name']}: player {place} "
                     f"(the game takes {record['players_min']} to {record['players_max']}).")
        else:
            where = (f"Game {game_id} is full, so you are number {place - record['players_max']} on its "
                     f"substitutes' list, as {request['name']}: if a player drops out, the host may call you in.")
        return Answer("processed", "joined", f"Signed up for {game_id}",
                      [where, f"Sign-ups close {render_moment(record['closes'])}; your role comes by mail when "
                              f"the game starts. To withdraw, mail LEAVE {game_id}."],
                      changes={"pending": pending, "entries": [*entries, entry]}, name=request["name"])
    return refusal("not for an open game", f"Game {game_id} is open for sign-ups and has not started, so there "
                                           f"is nothing to watch yet; mail JOIN {game_id} <name> to play.")
