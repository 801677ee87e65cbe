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

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from pbp.game.options import thread_language
from pbp.game.stored import StoredGame, load, save
from pbp.mail.limits import listed, quoted
from pbp.render.verdicts import Accepted, Refused, Verdict
from pbp.storage.mail_ledger import MailLedger
from pbp.storage.strangers import StrangerLog
from pbp.moderator import Moderator
from pbp.ports import InboundMail, Outcome
from pbp.storage.open_games import OPEN, OpenGame, find_open_game
from pbp.signups.details import JoinDetails, join_problems
from pbp.storage.signup_record import PendingRequest, SignupEntry, SignupRecord
from pbp.signups.codes import (
    MAX_PENDING,
    Pending,
    NEW_ADDRESS_ANSWERS_PER_DAY,
    new_code,
    take_request,
    waiting_for,
    with_request,
)
from pbp.signups.spectators import OUTSIDE_SEQUENCE, watch_refusal
from pbp.signups.substitutes import on_the_list, strike_off
from pbp.mail.signup_words import CONFIRM, SignupCommand, parse_signup
from pbp.render.languages import SOURCE_LANGUAGE
from pbp.render.moments import render_moment
from pbp.timezones import as_utc, to_text

NEW_ADDRESSES_KEY = (  # a record's answers to new addresses today: {day, count}
    "new_addresses_answered"
)
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
    pending: Pending
    answered_new: Mapping[str, Any]
    pending_key: str  # the record's key of `pending`


def _holder(game: OpenGame | StoredGame) -> Holder:
    if isinstance(game, StoredGame):
        record = game.record
        return Holder(
            record.id,
            record.ruleset,
            record.phase_id or "signup",
            frozenset({p.email for p in record.roster} | set(record.watchers)),
            record.watch_pending,
            record.new_addresses_answered,
            "watch_pending",
        )
    document = game.record
    return Holder(
        document.id,
        document.ruleset,
        "signup",
        frozenset(e.email for e in document.entries),
        document.pending,
        document.new_addresses_answered,
        "pending",
    )


def _store(game: OpenGame | StoredGame, changes: Mapping[str, Any]) -> None:
    """Write an answer's changes: a running game's are fields of its typed record (watchers,
    watch_pending, new_addresses_answered); an open game's are keys of its sign-up record."""
    if isinstance(game, StoredGame):
        save(game, replace(game.record, **changes))
    else:
        game.save(replace(game.record, **changes))


@dataclass
class Answer:
    """What one sign-up mail does: the reply's verdict (worded by templates/mail/_verdicts.j2)
    and the record's changes."""

    outcome: Outcome
    reason: str
    verdict: Verdict | None = None  # None: not answered
    code: str = ""  # the confirmation code the reply asks the sender to send back
    changes: dict[str, Any] = field(default_factory=dict)
    name: str = ""  # how the reply addresses the sender
    leaves_substitutes: bool = (
        False  # a confirmed watcher: off the substitutes' list once committed
    )
    unanswered: bool = False  # past a bound: no reply, and nothing stored in the game's file
    language: str = SOURCE_LANGUAGE  # the reply's: a JOIN's own LANG= (pbp.signups.details)


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
        command.word in ("JOIN", "LEAVE") or _holds(_holder(open_game), command)
    ):
        answer = _signup_answer(moderator, open_game, command, sender)
        return _commit(moderator, ledger, mail, may_reply, open_game, answer)
    if running is not None and open_game is None and command.word in ("JOIN", "LEAVE"):
        answer = _refusal("not open for sign-ups", "not_open", running.id)
        return _commit(moderator, ledger, mail, may_reply, running, answer)
    if running is not None and command.word in ("WATCH", "UNWATCH", CONFIRM):
        answer = _watch_answer(moderator, running, command, sender)
        outcome = _commit(moderator, ledger, mail, may_reply, running, answer)
        if (
            answer.leaves_substitutes
        ):  # after the watch is stored: `--next` skips watchers meanwhile
            strike_off(moderator.folder, running.id, sender)
        return outcome
    if open_game is not None:
        answer = _signup_answer(moderator, open_game, command, sender)
        return _commit(moderator, ledger, mail, may_reply, open_game, answer)
    return ledger.record_refused(
        mail, f"{command.word} for {quoted(command.game, 30)}, which is no open or running game"
    )


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


def _request(
    holder: Holder,
    action: str,
    sender: str,
    name: str,
    now: str,
    verdict: Accepted,
    details: JoinDetails | None = None,
) -> Answer:
    """A request noted, to be confirmed with a new code from the same address."""
    code = new_code()
    request = PendingRequest(
        action,
        sender,
        name,
        now,
        details.timezone if details else "",
        details.forum_name if details else "",
        language=details.language if details else "",
    )
    pending = with_request(holder.pending, code, request, as_utc(now))
    if pending is None:
        return Answer(
            "rejected",
            f"{action} request not answered: {MAX_PENDING} requests await their code",
            unanswered=True,
        )
    return Answer(
        "processed",
        f"{action} requested",
        verdict,
        code=code,
        changes={holder.pending_key: pending},
        name=name,
    )


def _refusal(reason: str, kind: str, game_id: str, name: str = "", **facts: Any) -> Answer:
    return Answer("rejected", reason, Refused(kind, game_id=game_id, name=name, **facts), name=name)


def _signup_answer(
    moderator: Moderator, game: OpenGame, command: SignupCommand, sender: str
) -> Answer:
    record = game.record
    game_id, now = record.id, to_text(moderator.clock())
    entries = record.entries
    mine = next((e for e in entries if e.email == sender), None)
    started = record.status != OPEN  # a JOIN then joins the substitutes' list, a LEAVE leaves it
    over = (
        started
        and game_id in moderator.folder.game_ids()
        and load(moderator, game_id).phase is None
    )
    if over or (
        started and command.word == "LEAVE" and mine is not None and mine not in game.substitutes
    ):
        return _refusal("sign-ups closed", "signups_closed", game_id)
    if command.word == "JOIN":
        return _join_answer(game, JoinDetails.parse(command.argument), mine, sender, now, started)
    if command.word == "LEAVE":
        if mine is None:
            return _refusal("LEAVE without a sign-up", "leave_without_signup", game_id)
        return _request(
            _holder(game),
            "leave",
            sender,
            mine.name,
            now,
            Accepted("leave_requested", game_id=game_id, name=mine.name),
        )
    if command.word == CONFIRM:
        request, pending = take_request(record.pending, command.argument, sender, moderator.clock())
        if request is None:
            return _refusal("unknown confirmation code", "bad_code", game_id, watching=False)
        if request.action == "leave":
            kept = tuple(e for e in entries if e.email != sender)
            return Answer(
                "processed",
                "left",
                Accepted("left", game_id=game_id),
                changes={"pending": pending, "entries": kept},
                name=request.name,
            )
        details = JoinDetails.of_request(request)
        problems = [problem for found in join_problems(record, details) for problem in found]
        if mine is not None or problems:
            return Answer(
                "rejected",
                "confirmation refused",
                Refused(
                    "confirmation_refused",
                    game_id=game_id,
                    already_as=mine.name if mine else "",
                    problems=tuple(listed(problems)),
                ),
                changes={"pending": pending},
            )
        entry = SignupEntry(
            details.name,
            sender,
            now,
            details.timezone,
            details.forum_name,
            language=details.language,
        )
        return Answer(
            "processed",
            "joined",
            Accepted(
                "joined",
                game_id=game_id,
                name=request.name,
                place=len(entries) + 1,
                players_min=record.players_min,
                players_max=game.seats,
                started=started,
                closes=render_moment(record.closes, details.timezone, details.reads),
                timezone=details.timezone,
                forum_name=details.forum_name,
            ),
            changes={"pending": pending, "entries": (*entries, entry)},
            name=request.name,
            language=details.reads,
        )
    return _refusal("not for an open game", "nothing_to_watch_yet", game_id)


def _join_answer(
    game: OpenGame,
    details: JoinDetails,
    mine: SignupEntry | None,
    sender: str,
    now: str,
    started: bool,
) -> Answer:
    """A JOIN: refused (already signed up, no name, a name or detail that cannot be used)
    or a request waiting for its CONFIRM."""
    record, name = game.record, details.name
    if mine is not None:
        return _refusal("already signed up", "already_signed_up", record.id, mine.name)
    if not name:
        return _refusal("JOIN without a name", "join_without_name", record.id)
    refused = _join_refusal(record, details)
    if refused:
        return refused
    return replace(
        _request(
            _holder(game),
            "join",
            sender,
            name,
            now,
            Accepted(
                "join_requested",
                game_id=record.id,
                ruleset=record.ruleset,
                name=name,
                closes=render_moment(record.closes, details.timezone, details.reads),
                started=started,
                timezone=details.timezone,
                forum_name=details.forum_name,
            ),
            details,
        ),
        language=details.reads,
    )


def _join_refusal(record: SignupRecord, details: JoinDetails) -> Answer | None:
    """The refusal of a JOIN whose name, time zone or forum name cannot be used, listing
    every problem; None when all can."""
    names, others = join_problems(record, details)
    if not names and not others:
        return None
    return _refusal(
        "sign-up refused",
        "join_refused",
        record.id,
        asked=details.name,
        name_refused=bool(names),
        problems=tuple(listed([*names, *others])),
    )


# ---------------------------------------------------------------------------------- watchers
def _watch_answer(
    moderator: Moderator, game: StoredGame, command: SignupCommand, sender: str
) -> Answer:
    record = game.record
    game_id, now = record.id, to_text(moderator.clock())
    watchers = list(record.watchers)
    if command.word == CONFIRM:
        request, pending = take_request(
            record.watch_pending, command.argument, sender, moderator.clock()
        )
        if request is None:
            return _refusal("unknown confirmation code", "bad_code", game_id, watching=True)
        if request.action == "unwatch":
            return Answer(
                "processed",
                "unwatched",
                Accepted("unwatched", game_id=game_id),
                changes={
                    "watch_pending": pending,
                    "watchers": tuple(w for w in watchers if w != sender),
                },
            )
        language = request.language  # `WATCH ww3 LANG=de`: the watcher's own language
        refused = watch_refusal(game, sender, watchers, language)
        if refused:
            return Answer("rejected", "watch refused", refused, changes={"watch_pending": pending})
        substitute = on_the_list(moderator.folder, game_id, sender)
        languages = {**record.watcher_languages, **({sender: language} if language else {})}
        return Answer(
            "processed",
            "watching",
            Accepted("watching", game_id=game_id, left_substitutes=substitute),
            changes={
                "watch_pending": pending,
                "watchers": (*watchers, sender),
                "watcher_languages": languages,
            },
            leaves_substitutes=substitute,
            language=language or thread_language(record.moderator_options),
        )
    if command.word == "WATCH":
        language = JoinDetails.parse(command.argument).language
        refused = watch_refusal(game, sender, watchers, language)
        if refused:
            return Answer("rejected", "watch refused", refused)
        return replace(
            _request(
                _holder(game),
                "watch",
                sender,
                "",
                now,
                Accepted(
                    "watch_requested",
                    game_id=game_id,
                    ruleset=record.ruleset,
                    on_substitutes=on_the_list(moderator.folder, game_id, sender),
                ),
                JoinDetails("", language=language) if language else None,
            ),
            language=language or thread_language(record.moderator_options),
        )
    if sender not in watchers:
        return _refusal("UNWATCH without watching", "unwatch_without_watching", game_id)
    return _request(
        _holder(game), "unwatch", sender, "", now, Accepted("unwatch_requested", game_id=game_id)
    )
