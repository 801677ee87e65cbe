"""Channel membership, read from the engine (engine.core.PlayerStatus.channels): the shell
never decides who belongs where; it relays to whom the rules put in a channel now. A
newcomer (bitten, seduced) joins when the engine's state says so (at dawn) and so sees only
later messages; the dead belong to no channel."""
from __future__ import annotations

from typing import Any

from pbp.storage.datafolder import GameFile
from pbp.game.stored import StoredGame

HOST = "host"  # the channel to the host, open to every player
TEAM = "team"  # the sender's only team channel


def message_log(file: GameFile) -> Any:
    """The game's table of messages (every channel's, the host's included)."""
    return file.db.table("messages", cache_size=0)


def is_npc(game: StoredGame, name: str) -> bool:
    return name in game.record.npc_names


def channels_of(game: StoredGame, name: str) -> tuple[str, ...]:
    """The team channels `name` belongs to now and shares with someone
    (`StoredGame.shared_channels`: a lone wolf has no pack)."""
    return game.shared_channels(name)


def members(game: StoredGame, channel: str) -> list[str]:
    """The characters in `channel` now, in roster order."""
    return [name for name in game.record.characters if channel in channels_of(game, name)]
