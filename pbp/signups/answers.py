"""What answering a sign-up mail is made of (docs/design.md: Sign-ups): the game it names
as a holder of addresses and waiting requests, open for sign-ups or running; the answer
(its reply's lines and the record's changes); a request waiting for its confirmation code;
a refusal that changes nothing."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from pbp import schedule
from pbp.game.stored import StoredGame
from pbp.ports import Outcome
from pbp.signups.codes import MAX_PENDING, new_code, with_request
from pbp.storage.open_games import OpenGame

NEW_ADDRESSES_KEY = "new_addresses_answered"  # a record's answers to new addresses today: {day, count}


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


def holder_of(game: OpenGame | StoredGame) -> Holder:
    """The game a sign-up mail names, open for sign-ups (its sign-up file) or running (its typed record)."""
    if isinstance(game, StoredGame):
        record = game.record
        return Holder(record.id, record.ruleset, record.phase_id or "signup",
                      frozenset({p.email for p in record.roster} | set(record.watchers)), record.watch_pending,
                      record.new_addresses_answered, "watch_pending")
    document = game.record
    return Holder(document["id"], document["ruleset"], "signup", frozenset(e["email"] for e in document["entries"]),
                  document.get("pending") or {}, document.get(NEW_ADDRESSES_KEY) or {}, "pending")


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


def ask_to_confirm(holder: Holder, action: str, sender: str, name: str, now: str, headline: str,
                   lines: list[str]) -> Answer:
    """A request stored under a new code, and a reply asking the sender to send it back;
    unanswered when too many requests wait for their code already."""
    code, game_id = new_code(), holder.id
    pending = with_request(holder.pending, code, {"action": action, "email": sender, "name": name,
                                                  "created": now}, schedule.from_text(now))
    if pending is None:
        return Answer("rejected", f"{action} request not answered: {MAX_PENDING} requests await their code",
                      "", unanswered=True)
    return Answer("processed", f"{action} requested", headline,
                  [*lines, "To confirm, reply to this mail (quoting it is enough), or send this line:"],
                  confirm=f"CONFIRM {game_id} {code}", changes={holder.pending_key: pending}, name=name)


def refusal(reason: str, sentence: str, name: str = "") -> Answer:
    """An answer that changes nothing and says why in one sentence."""
    return Answer("rejected", reason, "Nothing changed", [sentence], name=name)


def bad_code(game_id: str, what: str) -> Answer:
    return refusal("unknown confirmation code",
                   f"That confirmation code for {game_id} is not valid (used already, replaced by a newer request, "
                   f"or sent from another address); mail {what} again to get a new one.")
