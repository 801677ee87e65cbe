"""One-time confirmation codes (docs/design.md: Sign-ups): every JOIN, LEAVE, WATCH and
UNWATCH is only a request until the sender replies with the code pbp mailed to their
address, so nobody can sign up, withdraw or watch with another person's address.

Pending requests live in a record (an open game's, or a running game's for watchers) as
code → {action, email, name, created}. An address has at most one pending request per
game (a new request replaces it), and a record holds at most `MAX_PENDING` of them, the
oldest forgotten first, so mail from forged addresses cannot grow the file without bound.
"""
from __future__ import annotations

import secrets
from typing import Any

from pbp.game.record import TOKEN_ALPHABET

MAX_PENDING = 200
CODE_LENGTH = 10


def new_code() -> str:
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(CODE_LENGTH))


def with_request(pending: dict[str, dict[str, Any]], code: str, request: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """`pending` with `request` under `code`, replacing the address's earlier request."""
    kept = {c: r for c, r in pending.items() if r["email"] != request["email"]}
    kept[code] = request
    while len(kept) > MAX_PENDING:  # dicts keep order: the first is the oldest
        del kept[next(iter(kept))]
    return kept


def take_request(pending: dict[str, dict[str, Any]], code: str,
                 email: str) -> tuple[dict[str, Any] | None, dict[str, dict[str, Any]]]:
    """(the request `code` stands for, if `email` made it; the pending requests without it).
    A code used from another address is not found and stays pending for its owner."""
    request = pending.get(code.lower())
    if request is None or request["email"] != email:
        return None, pending
    return request, {c: r for c, r in pending.items() if c != code.lower()}
