"""A channel's messages as the host reads them (`pbp channel <game> <channel>`). Player
text is shown with its control characters made visible (docs/design.md: Hostile input)."""

from __future__ import annotations

from typing import Any

from pbp.conversations.channels import HOST, message_log
from pbp.storage.datafolder import GameFile
from pbp.game.stored import StoredGame
from pbp.terminal import visible
from pbp.timezones import render_timestamp


def waiting_questions(file: GameFile) -> list[tuple[str, str]]:
    """(player, phase) of each player whose last word with the host is their own: a
    message the host has not answered yet (for `pbp status`)."""
    last: dict[str, dict[str, Any]] = {}
    for row in message_log(file).all():
        if row["channel"] == HOST:
            last[row["player"]] = row
    return [(player, row["phase"]) for player, row in last.items() if row["sender"] != HOST]


def channel_log(game: StoredGame, channel: str) -> str:
    rows = [row for row in message_log(game.file).all() if row["channel"] == channel.lower()]
    if not rows:
        return f"Game {game.id}: no messages in {channel!r}."
    lines = [
        f"Game {game.id}, channel {channel.lower()}: {len(rows)}"
        f" message{'s' if len(rows) != 1 else ''}"
    ]
    for row in rows:
        who = row["sender"]
        if row["channel"] == HOST:
            who = (
                f"{row['player']} to the host"
                if row["sender"] != HOST
                else f"the host to {row['player']}"
            )
        lines.append(f"[{row['phase']}] {render_timestamp(row['received'])}, {who}:")
        lines.extend(f"    {visible(line)}" for line in row["text"].splitlines())
    return "\n".join(lines)
