"""Channel membership, read from the engine (engine.core.PlayerStatus.channels): the shell
never decides who belongs where; it relays to whom the rules put in a channel now. A
newcomer (bitten, seduced) joins when the engine's state says so (at dawn) and so sees only
later messages; the dead belong to no channel."""

from __future__ import annotations

from typing import Any

from pbp.storage.datafolder import GameFile
from pbp.storage.journal_table import JournalTable
from pbp.game.stored import StoredGame

HOST = "host"  # the channel to the host, open to every player
TEAM = "team"  # the sender's only team channel


def message_log(file: GameFile) -> JournalTable:
    """The game's messages (every channel's, the host's included), kept in its journal
    (docs/design.md: Storage — where each piece of a game lives): a relayed message is one
    appended line, never a rewrite of the game's document."""
    return file.messages


def log_message(file: GameFile, row: dict[str, Any]) -> None:
    """Store one message (call inside the game's transaction), with the day it came (the
    day the daily cap counts it in: the date of its `received`, an ISO timestamp)."""
    message_log(file).insert({**row, "day": row["received"][:10]})


def sent_on(file: GameFile, sender: str, day: str) -> int:
    """How many messages `sender` sent on `day` (ISO date), at the cost of that day's."""
    return message_log(file).count_where("day", day, lambda row: row["sender"] == sender)


def is_npc(game: StoredGame, name: str) -> bool:
    return name in game.record.npc_names


def channels_of(game: StoredGame, name: str) -> tuple[str, ...]:
    """The team channels `name` belongs to now and shares with someone
    (`StoredGame.shared_channels`: a lone wolf has no pack)."""
    return game.shared_channels(name)


def members(game: StoredGame, channel: str) -> list[str]:
    """The characters in `channel` now, in roster order."""
    return [name for name in game.record.characters if channel in channels_of(game, name)]
