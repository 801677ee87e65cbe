"""Answering WATCH, UNWATCH and CONFIRM for a running game whose option `spectators` is
`all` (pbp.signups.mail; docs/design.md: Sign-ups and spectators): a request waits for its
code, and the CONFIRM that brings the code adds or removes the watcher.
"""

from __future__ import annotations

from dataclasses import replace

from pbp.game.options import thread_language
from pbp.game.stored import StoredGame
from pbp.mail.signup_words import CONFIRM, SignupCommand
from pbp.moderator import Moderator
from pbp.render.languages import language_problem
from pbp.render.verdicts import Accepted
from pbp.signups.answers import Answer, holder_of, noted_request, refusal
from pbp.signups.codes import take_request
from pbp.signups.details import JoinDetails
from pbp.signups.spectators import watch_refusal
from pbp.signups.substitutes import on_the_list
from pbp.timezones import to_text


def watch_answer(
    moderator: Moderator, game: StoredGame, command: SignupCommand, sender: str
) -> Answer:
    """The answer to a WATCH, UNWATCH or CONFIRM for a running game; a refusal in the
    sender's language (docs/design.md: Refusals in every language)."""
    answer = _answer(moderator, game, command, sender)
    if answer.outcome != "rejected":
        return answer
    return replace(answer, language=_reader(game, command, sender))


def _reader(game: StoredGame, command: SignupCommand, sender: str) -> str:
    """The language a refused watcher reads: the LANG= of their WATCH (or of the WATCH a
    CONFIRM's code stands for) or the one they watch in, when pbp writes in it; else the
    thread's."""
    record = game.record
    own = record.watcher_languages.get(sender, "")
    if command.word == "WATCH":
        own = JoinDetails.parse(command.argument).language or own
    elif command.word == CONFIRM:
        request = record.watch_pending.get(command.argument.lower())
        own = (request.language if request and request.email == sender else "") or own
    if own and not language_problem(own):
        return own
    return thread_language(record.moderator_options)


def _answer(moderator: Moderator, game: StoredGame, command: SignupCommand, sender: str) -> Answer:
    record = game.record
    game_id, now = record.id, to_text(moderator.clock())
    watchers = list(record.watchers)
    if command.word == CONFIRM:
        return _confirm_watch(moderator, game, command.argument, sender, watchers)
    if command.word == "WATCH":
        return _watch_request(moderator, game, command.argument, sender, watchers, now)
    if sender not in watchers:
        return refusal("UNWATCH without watching", "unwatch_without_watching", game_id)
    return noted_request(
        holder_of(game), "unwatch", sender, "", now, Accepted("unwatch_requested", game_id=game_id)
    )


def _confirm_watch(
    moderator: Moderator, game: StoredGame, code: str, sender: str, watchers: list[str]
) -> Answer:
    """A CONFIRM: the WATCH or UNWATCH its code stands for carried out, or refused."""
    record = game.record
    game_id = record.id
    request, pending = take_request(record.watch_pending, code, sender, moderator.clock())
    if request is None:
        return refusal("unknown confirmation code", "bad_code", game_id, watching=True)
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


def _watch_request(
    moderator: Moderator,
    game: StoredGame,
    argument: str,
    sender: str,
    watchers: list[str],
    now: str,
) -> Answer:
    """A WATCH: refused, or a request waiting for its CONFIRM."""
    record = game.record
    game_id = record.id
    language = JoinDetails.parse(argument).language
    refused = watch_refusal(game, sender, watchers, language)
    if refused:
        return Answer("rejected", "watch refused", refused)
    return replace(
        noted_request(
            holder_of(game),
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
