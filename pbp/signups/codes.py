"""One-time confirmation codes (docs/design.md: Sign-ups and spectators): every JOIN, LEAVE,
WATCH and UNWATCH is only a request until the sender replies with the code pbp mailed to their
address, so nobody can sign up, withdraw or watch with another person's address.

Pending requests live in a record (an open game's, or a running game's for watchers) as
code → {action, email, name, created}. Anyone can send a request with any From, so they
are bounded: an address has at most one pending request per game (a new request replaces
it), a request expires `PENDING_LIFETIME` after it was made, and a record holds at most
`MAX_PENDING` of them. A request past that bound is refused, never one already waiting
pushed out, so a flood of forged requests cannot push out an honest sign-up awaiting its
code. Answers to addresses a game does not know yet are capped per day
(`NEW_ADDRESS_ANSWERS_PER_DAY`, pbp.signups.mail), so pbp does not mail every address a
flood names.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Mapping

from pbp.storage.signup_record import PendingRequest
from pbp.timezones import as_utc
from pbp.game.judging.token_guard import TOKEN_ALPHABET
from pbp.mail.signup_words import CODE_LENGTH

MAX_PENDING = 50
PENDING_LIFETIME = timedelta(days=1)
NEW_ADDRESS_ANSWERS_PER_DAY = 50

# The requests waiting for their code, by code.
Pending = Mapping[str, PendingRequest]


def new_code() -> str:
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(CODE_LENGTH))


def current(pending: Pending, now: datetime) -> dict[str, PendingRequest]:
    """`pending` without the requests that have expired."""
    oldest = now - PENDING_LIFETIME
    return {code: request for code, request in pending.items() if as_utc(request.created) > oldest}


def with_request(
    pending: Pending, code: str, request: PendingRequest, now: datetime
) -> dict[str, PendingRequest] | None:
    """`pending` with `request` under `code`, replacing the address's earlier request and
    dropping expired ones; None when `MAX_PENDING` other requests are waiting."""
    kept = {c: r for c, r in current(pending, now).items() if r.email != request.email}
    if len(kept) >= MAX_PENDING:
        return None
    kept[code] = request
    return kept


def take_request(
    pending: Pending, code: str, email: str, now: datetime
) -> tuple[PendingRequest | None, dict[str, PendingRequest]]:
    """(the request `code` stands for, if `email` made it and it has not expired; the
    pending requests without it and without expired ones). A code used from another
    address is not found and stays pending for its owner."""
    waiting = current(pending, now)
    request = waiting.get(code.lower())
    if request is None or request.email != email:
        return None, waiting
    return request, {c: r for c, r in waiting.items() if c != code.lower()}


def waiting_for(pending: Pending, email: str, now: datetime) -> bool:
    """Whether `email` has a request waiting for its code."""
    return any(request.email == email for request in current(pending, now).values())
