"""A sign-up mail's answer (pbp.signups.mail; docs/design.md: Sign-ups and spectators):
what it reads of the game it names, the reply's verdict with the record's changes, and the
two shapes most answers take, a request waiting for its code and a refusal.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping

from pbp.game.stored import StoredGame, save
from pbp.ports import Outcome
from pbp.render.languages import SOURCE_LANGUAGE
from pbp.render.verdicts import Accepted, Refused, Verdict
from pbp.signups.codes import MAX_PENDING, Pending, new_code, with_request
from pbp.signups.details import JoinDetails
from pbp.storage.open_games import OpenGame
from pbp.storage.signup_record import PendingRequest
from pbp.timezones import as_utc


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


def holder_of(game: OpenGame | StoredGame) -> Holder:
    """What answering reads of `game`, open for sign-ups or running."""
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


def store_changes(game: OpenGame | StoredGame, changes: Mapping[str, Any]) -> None:
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
    # A confirmed watcher: off the substitutes' list once committed.
    leaves_substitutes: bool = False
    unanswered: bool = False  # past a bound: no reply, and nothing stored in the game's file
    language: str = SOURCE_LANGUAGE  # the reply's: a JOIN's own LANG= (pbp.signups.details)


def noted_request(
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


def refusal(reason: str, kind: str, game_id: str, name: str = "", **facts: Any) -> Answer:
    """A refusal: the mail rejected for `reason`, its reply the verdict `kind`."""
    return Answer("rejected", reason, Refused(kind, game_id=game_id, name=name, **facts), name=name)
