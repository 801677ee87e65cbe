"""The desk's credentials, kept in the data folder's `web/` folder (the host's alone):
the host's password as an Argon2 hash, the key that signs session cookies, and the
one-time login links `pbp web` prints (docs/design.md: The host's desk — as safe as the
mailbox).

The signing key belongs to one data folder, so a session cookie of one folder is useless
on another; setting a new password makes a new key, which ends every open session."""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from pathlib import Path

from pbp.durable import private_folder, write_atomically

WEB_FOLDER = "web"
PASSWORD_FILE, KEY_FILE, LINKS_FILE = "host-password", "session-key", "login-links.json"
# A printed login link works once, within this many seconds.
LINK_LIFETIME = 15 * 60
SHORTEST_PASSWORD = 10


def web_folder(data: Path) -> Path:
    return private_folder(Path(data) / WEB_FOLDER)


def session_key(data: Path) -> bytes:
    """The key that signs this folder's session cookies, made on first use."""
    path = web_folder(data) / KEY_FILE
    if not path.exists():
        write_atomically(path, secrets.token_bytes(32))
    return path.read_bytes()


def set_password(data: Path, password: str) -> None:
    """Store the host's password (hashed) and end every open session."""
    from argon2 import PasswordHasher  # only `pbp web` pays for argon2

    if len(password) < SHORTEST_PASSWORD:
        from pbp.errors import UserError

        raise UserError(
            f"That password is {len(password)} characters long; choose one of at least "
            f"{SHORTEST_PASSWORD}."
        )
    folder = web_folder(data)
    write_atomically(folder / PASSWORD_FILE, PasswordHasher().hash(password).encode())
    write_atomically(folder / KEY_FILE, secrets.token_bytes(32))


def has_password(data: Path) -> bool:
    return (web_folder(data) / PASSWORD_FILE).exists()


def password_matches(data: Path, password: str) -> bool:
    from argon2 import PasswordHasher
    from argon2.exceptions import Argon2Error

    path = web_folder(data) / PASSWORD_FILE
    if not path.exists():
        return False
    try:
        return PasswordHasher().verify(path.read_text().strip(), password)
    except Argon2Error:
        return False


def new_login_link(data: Path, now: float | None = None) -> str:
    """A token for one login within LINK_LIFETIME; only its digest is stored."""
    token = secrets.token_urlsafe(24)
    links = _live_links(data, time.time() if now is None else now)
    links[_digest(token)] = (time.time() if now is None else now) + LINK_LIFETIME
    _write_links(data, links)
    return token


def use_login_link(data: Path, token: str, now: float | None = None) -> bool:
    """True once for a printed token that has not expired; it then works no more."""
    links = _live_links(data, time.time() if now is None else now)
    found = links.pop(_digest(token), None) is not None
    _write_links(data, links)
    return found


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _live_links(data: Path, now: float) -> dict[str, float]:
    path = web_folder(data) / LINKS_FILE
    try:
        stored = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return {digest: float(until) for digest, until in stored.items() if float(until) > now}


def _write_links(data: Path, links: dict[str, float]) -> None:
    write_atomically(web_folder(data) / LINKS_FILE, json.dumps(links).encode())
