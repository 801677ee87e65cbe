"""Answering JOIN, LEAVE and CONFIRM for a game open for sign-ups (pbp.signups.mail;
docs/design.md: Sign-ups and spectators): a request waits for its code, and the CONFIRM
that brings the code signs the sender up or takes them off, unless a check refuses it.
"""

from __future__ import annotations

from dataclasses import replace

from pbp.game.stored import load
from pbp.game.options import LANGUAGE
from pbp.mail.signup_words import CONFIRM, SignupCommand
from pbp.moderator import Moderator
from pbp.render.languages import SOURCE_LANGUAGE, language_problem
from pbp.render.moments import render_moment
from pbp.render.verdicts import Accepted, Refused
from pbp.signups.answers import Answer, holder_of, noted_request, refusal
from pbp.signups.codes import Pending, take_request
from pbp.signups.details import JoinDetails, join_problems
from pbp.storage.open_games import OPEN, OpenGame
from pbp.storage.signup_record import PendingRequest, SignupEntry, SignupRecord
from pbp.timezones import to_text


def signup_answer(
    moderator: Moderator, game: OpenGame, command: SignupCommand, sender: str
) -> Answer:
    """The answer to a JOIN, LEAVE or CONFIRM for a game open for sign-ups, or started with
    its later sign-ups on the substitutes' list."""
    record = game.record
    game_id, now = record.id, to_text(moderator.clock())
    mine = next((e for e in record.entries if e.email == sender), None)
    started = record.status != OPEN  # a JOIN then joins the substitutes' list, a LEAVE leaves it
    answer = _answer(moderator, game, command, sender, mine, now, started)
    if answer.outcome != "rejected":
        return answer
    own = _own_language(record, command, sender, mine)
    return replace(answer, language=reader_language(record, own))


def _answer(
    moderator: Moderator,
    game: OpenGame,
    command: SignupCommand,
    sender: str,
    mine: SignupEntry | None,
    now: str,
    started: bool,
) -> Answer:
    game_id = game.record.id
    if _closed(moderator, game, command, mine, started):
        return refusal("sign-ups closed", "signups_closed", game_id)
    if command.word == "JOIN":
        return _join_answer(game, JoinDetails.parse(command.argument), mine, sender, now, started)
    if command.word == "LEAVE":
        return _leave_answer(game, mine, sender, now)
    if command.word == CONFIRM:
        return _confirm_answer(moderator, game, command.argument, sender, mine, now, started)
    return refusal("not for an open game", "nothing_to_watch_yet", game_id)


def _own_language(
    record: SignupRecord, command: SignupCommand, sender: str, mine: SignupEntry | None
) -> str:
    """The language a refused sender asked for: a JOIN's LANG=, or the LANG= of the JOIN
    a CONFIRM's code stands for, else the one they signed up with ("" for none)."""
    given = ""
    if command.word == "JOIN":
        given = JoinDetails.parse(command.argument).language
    elif command.word == CONFIRM:
        request = record.pending.get(command.argument.lower())
        given = request.language if request and request.email == sender else ""
    return given or (mine.language if mine else "")


def reader_language(record: SignupRecord, own: str) -> str:
    """The language a refusal of a sign-up mail is written in (docs/design.md: Refusals in
    every language): the sender's own when pbp writes in it, else the game's (the option
    `language`), else English."""
    options = {str(key).strip().lower(): str(value) for key, value in record.options.items()}
    for code in (own, options.get(LANGUAGE, "").strip().lower()):
        if code and not language_problem(code):
            return code
    return SOURCE_LANGUAGE


def _closed(
    moderator: Moderator,
    game: OpenGame,
    command: SignupCommand,
    mine: SignupEntry | None,
    started: bool,
) -> bool:
    """Whether sign-ups are closed to `command`: the game is over, or a player already dealt
    in asks to LEAVE."""
    game_id = game.record.id
    over = (
        started
        and game_id in moderator.folder.game_ids()
        and load(moderator, game_id).phase is None
    )
    return over or (
        started and command.word == "LEAVE" and mine is not None and mine not in game.substitutes
    )


def _leave_answer(game: OpenGame, mine: SignupEntry | None, sender: str, now: str) -> Answer:
    """A LEAVE: refused without a sign-up, else a request waiting for its CONFIRM."""
    game_id = game.record.id
    if mine is None:
        return refusal("LEAVE without a sign-up", "leave_without_signup", game_id)
    return noted_request(
        holder_of(game),
        "leave",
        sender,
        mine.name,
        now,
        Accepted("leave_requested", game_id=game_id, name=mine.name),
    )


def _confirm_answer(
    moderator: Moderator,
    game: OpenGame,
    code: str,
    sender: str,
    mine: SignupEntry | None,
    now: str,
    started: bool,
) -> Answer:
    """A CONFIRM: the LEAVE or JOIN its code stands for carried out, or refused."""
    record = game.record
    game_id, entries = record.id, record.entries
    request, pending = take_request(record.pending, code, sender, moderator.clock())
    if request is None:
        return refusal("unknown confirmation code", "bad_code", game_id, watching=False)
    if request.action == "leave":
        kept = tuple(e for e in entries if e.email != sender)
        return Answer(
            "processed",
            "left",
            Accepted("left", game_id=game_id),
            changes={"pending": pending, "entries": kept},
            name=request.name,
        )
    return _confirmed_join(game, request, pending, mine, sender, now, started)


def _confirmed_join(
    game: OpenGame,
    request: PendingRequest,
    pending: Pending,
    mine: SignupEntry | None,
    sender: str,
    now: str,
    started: bool,
) -> Answer:
    """A confirmed JOIN: the sender signed up, or refused when already signed up or when
    a detail of the request can no longer be used."""
    record = game.record
    game_id, entries = record.id, record.entries
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
                problems=tuple(problems),
            ),
            changes={"pending": pending},
        )
    entry = SignupEntry(
        details.name, sender, now, details.timezone, details.forum_name, language=details.language
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
        return refusal("already signed up", "already_signed_up", record.id, mine.name)
    if not name:
        return refusal("JOIN without a name", "join_without_name", record.id)
    refused = _join_refusal(record, details)
    if refused:
        return refused
    return replace(
        noted_request(
            holder_of(game),
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
    return refusal(
        "sign-up refused",
        "join_refused",
        record.id,
        asked=details.name,
        name_refused=bool(names),
        problems=(*names, *others),
    )
