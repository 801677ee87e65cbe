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

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from engine import roster_problems
from pbp import schedule
from pbp.game.options import spectators_mode
from pbp.game.stored import StoredGame, load, save
from pbp.mail.limits import listed, quoted
from pbp.storage.inbound_ledger import MailLedger
from pbp.moderator import Moderator
from pbp.ports import InboundMail, Outcome
from pbp.storage.open_games import OPEN, OpenGame, find_open_game
from pbp.signups.codes import (MAX_PENDING, NEW_ADDRESS_ANSWERS_PER_DAY, new_code, take_request, waiting_for,
                               with_request)
from pbp.signups.spectators import OUTSIDE_SEQUENCE
from pbp.signups.substitutes import on_the_list, strike_off
from pbp.mail.signup_words import CONFIRM, SignupCommand, parse_signup
from pbp.timezones import render_moment

NEW_ADDRESSES_KEY = "new_addresses_answered"  # a record's answers to new addresses today: {day, count}
KIND = "signup"


@dataclass(frozen=True)
class Holder:
    """What answering a sign-up mail reads of the game it names, open for sign-ups or
    running: its addresses, the requests waiting for a code, today's answers to new
    addresses. A running game's requests are its watchers' (`watch_pending`)."""

    id: str
    ruleset: str
    phase: str  # the phase the reply is filed under
    known: frozenset[str]  # the addresses of its players, sign-ups and watchers
    pending: Mapping[str, Any]
    answered_new: Mapping[str, Any]
    pending_key: str  # the record's key of `pending`


def _holder(game: OpenGame | StoredGame) -> Holder:
    if isinstance(game, StoredGame):
        record = game.record
        return Holder(record.id, record.ruleset, record.phase_id or "signup",
                      frozenset({p.email for p in record.roster} | set(record.watchers)), record.watch_pending,
                      record.new_addresses_answered, "watch_pending")
    document = game.record
    return Holder(document["id"], document["ruleset"], "signup", frozenset(e["email"] for e in document["entries"]),
                  document.get("pending") or {}, document.get(NEW_ADDRESSES_KEY) or {}, "pending")


def _store(game: OpenGame | StoredGame, changes: Mapping[str, Any]) -> None:
    """Write an answer's changes: a running game's are fields of its typed record (watchers,
    watch_pending, new_addresses_answered); an open game's are keys of its sign-up record."""
    if isinstance(game, StoredGame):
        save(game, replace(game.record, **changes))
    else:
        game.file.update_record(dict(changes))


@dataclass
class Answer:
    """What one sign-up mail does: the reply's headline and lines, and the record's changes."""

    outcome: Outcome
    reason: str
    headline: str
    lines: list[str] = field(default_factory=list)
    confirm: str = ""  # the CONFIRM line the reply asks the sender to send back
    changes: dict[str, Any] = field(default_factory=dict)
    name: str = ""  # how the reply addresses the sender
    leaves_substitutes: bool = False  # a confirmed watcher: off the substitutes' list once committed
    unanswered: bool = False  # past a bound: no reply, and nothing stored in the game's file


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
    if open_game is not None and (command.word in ("JOIN", "LEAVE") or _holds(_holder(open_game), command)):
        answer = _signup_answer(moderator, open_game, command, sender)
        return _commit(moderator, ledger, mail, may_reply, open_game, answer)
    if running is not None and open_game is None and command.word in ("JOIN", "LEAVE"):
        answer = _refusal("not open for sign-ups", f"Game {running.id} is not open for sign-ups: its players were "
                                                   "chosen by the host before it began.")
        return _commit(moderator, ledger, mail, may_reply, running, answer)
    if running is not None and command.word in ("WATCH", "UNWATCH", CONFIRM):
        answer = _watch_answer(moderator, running, command, sender)
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
    holder = _holder(game)
    sender = mail.sender or ""  # signup_mail answers no mail without exactly one sender
    why_not, counted = _left_unanswered(moderator, holder, sender, answer)
    if why_not:
        return ledger.record_refused(mail, why_not)
    file = game.file
    with file.transaction():
        if answer.changes or counted:
            _store(game, {**answer.changes, **counted})
        if may_reply(game, sender):
            facts = {"id": holder.id, "ruleset": holder.ruleset}
            reply = moderator.renderer.render(KIND, holder.ruleset, game=facts, name=answer.name,
                                              headline=answer.headline, lines=answer.lines, confirm=answer.confirm)
            moderator.outbox.queue(file, phase=holder.phase, recipient=answer.name or "player",
                                   address=sender, kind=KIND, mail=reply, in_reply_to=mail.message_id,
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


def _request(holder: Holder, action: str, sender: str, name: str, now: str, headline: str,
             lines: list[str]) -> Answer:
    code, game_id = new_code(), holder.id
    pending = with_request(holder.pending, code, {"action": action, "email": sender, "name": name,
                                                        "created": now}, schedule.from_text(now))
    if pending is None:
        return Answer("rejected", f"{action} request not answered: {MAX_PENDING} requests await their code",
                      "", unanswered=True)
    return Answer("processed", f"{action} requested", headline,
                  [*lines, "To confirm, reply to this mail (quoting it is enough), or send this line:"],
                  confirm=f"CONFIRM {game_id} {code}", changes={holder.pending_key: pending}, name=name)


def _refusal(reason: str, sentence: str, name: str = "") -> Answer:
    return Answer("rejected", reason, "Nothing changed", [sentence], name=name)


# ---------------------------------------------------------------------------------- sign-ups
def _signup_answer(moderator: Moderator, game: OpenGame, command: SignupCommand, sender: str) -> Answer:
    record = game.record
    game_id, now = record["id"], schedule.to_text(moderator.clock())
    entries = record["entries"]
    mine = next((e for e in entries if e["email"] == sender), None)
    if record["status"] != OPEN:
        return _refusal("sign-ups closed", f"Game {game_id} has started, so its sign-ups are closed.")
    if command.word == "JOIN":
        name = command.argument.strip()
        if mine is not None:
            return _refusal("already signed up", f"You are signed up for {game_id} already, as {mine['name']}; "
                                                 f"to withdraw, mail LEAVE {game_id}.", mine["name"])
        if not name:
            return _refusal("JOIN without a name", f"Write the name you want to play under after the game, "
                                                   f"for example: JOIN {game_id} Alice.")
        problems = roster_problems([e["name"] for e in entries] + [name])
        if problems:
            return Answer("rejected", "name refused", "Nothing changed",
                          [f"The name {quoted(name, 30)!r} cannot be used in {game_id}; choose another and mail "
                           f"JOIN {game_id} <name> again:", *(f"- {p}" for p in listed(problems))])
        return _request(_holder(game), "join", sender, name, now,
                        f"Confirm your sign-up for {game_id}",
                        [f"You asked to play in game {game_id} ({record['ruleset']}) as {name}.",
                         f"Sign-ups close {render_moment(record['closes'])}."])
    if command.word == "LEAVE":
        if mine is None:
            return _refusal("LEAVE without a sign-up", f"You are not signed up for {game_id}, so there is nothing "
                                                       "to withdraw.")
        return _request(_holder(game), "leave", sender, mine["name"], now,
                        f"Confirm that you leave {game_id}",
                        [f"You asked to withdraw your sign-up for game {game_id} ({mine['name']})."])
    if command.word == CONFIRM:
        request, pending = take_request(record.get("pending", {}), command.argument, sender, moderator.clock())
        if request is None:
            return _bad_code(game_id, "JOIN or LEAVE")
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
    return _refusal("not for an open game", f"Game {game_id} is open for sign-ups and has not started, so there "
                                            f"is nothing to watch yet; mail JOIN {game_id} <name> to play.")


def _bad_code(game_id: str, what: str) -> Answer:
    return _refusal("unknown confirmation code",
                    f"That confirmation code for {game_id} is not valid (used already, replaced by a newer request, "
                    f"or sent from another address); mail {what} again to get a new one.")


# ---------------------------------------------------------------------------------- watchers
def _watch_answer(moderator: Moderator, game: StoredGame, command: SignupCommand, sender: str) -> Answer:
    record = game.record
    game_id, now = record.id, schedule.to_text(moderator.clock())
    watchers = list(record.watchers)
    if command.word == CONFIRM:
        request, pending = take_request(record.watch_pending, command.argument, sender, moderator.clock())
        if request is None:
            return _bad_code(game_id, "WATCH or UNWATCH")
        if request["action"] == "unwatch":
            return Answer("processed", "unwatched", f"You no longer watch {game_id}",
                          [f"pbp sends you no more mail about {game_id}."],
                          changes={"watch_pending": pending, "watchers": tuple(w for w in watchers if w != sender)})
        refused = _watch_refusal(game, sender, watchers)
        if refused:
            return Answer("rejected", "watch refused", "Nothing changed", [refused],
                          changes={"watch_pending": pending})
        substitute = on_the_list(moderator.folder, game_id, sender)
        left = [f"You are no longer on the substitutes' list of {game_id}: a watcher has seen every role "
                "and night action, so is never dealt in."] if substitute else []
        return Answer("processed", "watching", f"You watch {game_id}",
                      [f"After each resolution of {game_id} you get the host's view of it: who gave which orders "
                       "and what happened. Watchers only watch: nothing you send reaches the players.", *left,
                       f"To stop, mail UNWATCH {game_id}."],
                      changes={"watch_pending": pending, "watchers": (*watchers, sender)},
                      leaves_substitutes=substitute)
    if command.word == "WATCH":
        refused = _watch_refusal(game, sender, watchers)
        if refused:
            return _refusal("watch refused", refused)
        warning = [f"You are on the substitutes' list of {game_id}. If you confirm, you leave it: a watcher "
                   "sees every role and night action, so is never dealt in."
                   ] if on_the_list(moderator.folder, game_id, sender) else []
        return _request(_holder(game), "watch", sender, "", now, f"Confirm that you watch {game_id}",
                        [f"You asked to watch game {game_id} ({record.ruleset}) as a spectator.", *warning])
    if sender not in watchers:
        return _refusal("UNWATCH without watching", f"You are not watching {game_id}, so there is nothing to stop.")
    return _request(_holder(game), "unwatch", sender, "", now, f"Confirm that you stop watching {game_id}",
                    [f"You asked to stop watching game {game_id}."])


def _watch_refusal(game: StoredGame, sender: str, watchers: list[str]) -> str:
    """Why `sender` may not watch `game`, or "" when they may."""
    game_id, mode = game.id, spectators_mode(game.record.moderator_options, game.rules.card)
    if game.roster.by_address(sender) is not None:
        return f"You play in {game_id}, and players cannot watch their own game."
    if game.phase is None:
        return f"Game {game_id} is over, so there is nothing left to watch."
    if mode != "all":
        return f"Game {game_id} takes no watchers: its host has set its option spectators to {mode}."
    if sender in watchers:
        return f"You watch {game_id} already; to stop, mail UNWATCH {game_id}."
    return ""
