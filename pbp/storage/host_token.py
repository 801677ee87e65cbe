"""The game's host token (for `APPROVE` by mail, the host's messages and the forms of the
characters the host plays), kept in the game's record beside the host's other facts
(docs/design.md: Storage — where each piece of a game lives). A folder written before it
lived there had it in the forum's table; the upgrade to data format 3 moved it
(pbp.storage.upgrading.upgrades)."""

from __future__ import annotations

import secrets

from pbp.storage.datafolder import GameFile

KEY = "host_token"  # the record's key (pbp.game.record.GameRecord.host_token)


def host_token(file: GameFile) -> str:
    """The game's host token, made on first use (inside the caller's transaction, if any)."""
    token = known_host_token(file)
    if not token:
        token = secrets.token_hex(6)
        file.update_record({KEY: token})
    return token


def known_host_token(file: GameFile) -> str:
    """The host token if one was made ("" before): for a reader, which makes nothing."""
    return str(file.record().get(KEY) or "")
