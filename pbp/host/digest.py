"""What a substitute is told about the character they take over (docs/design.md: Command
line, `pbp substitute`): instead of every earlier mail in full, a digest of what the
character was told privately, phase by phase, rebuilt by replaying the game from its seed
and order log; what it read and wrote in its team channels (pack, Masons, lovers, Reds...);
and the character's orders already in for the open phase.

Only the character's own private events and the channel messages it sent or was sent are
read, so the digest says nothing its player was not told; the public history is in the
thread and in every report. The talk with the host is left out: it was the old player's.
"""

from __future__ import annotations

from typing import Any

from pbp.conversations.channels import HOST, message_log
from pbp.game.stored import StoredGame
from pbp.host.replay import ReplayError, replay_steps, step_resolution
from pbp.render.renderer import event_json


def private_history(game: StoredGame, character: str) -> list[dict[str, Any]]:
    """[{"phase": id, "events": [event JSON, ...]}] for every step that told `character`
    something privately, oldest first. Raises ReplayError when the log does not replay."""
    rules, record = game.rules, game.record
    state = rules.new_game(record.player_specs, record.seed, dict(record.options))
    history = []
    for step in replay_steps(game):
        phase = rules.phase(state)
        if phase is None or phase.id != step.phase:
            raise ReplayError(step.describe(), "the order log does not replay", [])
        resolution = step_resolution(rules, state, step)
        told = [event_json(e) for e in resolution.private.get(character, ())]
        if told:
            history.append({"phase": step.phase, "events": told})
        state = resolution.state
    return history


def current_orders(game: StoredGame, character: str) -> dict[str, Any] | None:
    """The character's accepted orders for the open phase: {"phase", "lines"}, or None."""
    if game.phase is None:
        return None
    row = game.latest_order(game.phase.id, character)
    return {"phase": game.phase.id, "lines": row.lines} if row else None


def channel_history(game: StoredGame, character: str) -> list[dict[str, Any]]:
    """[{"channel", "phase", "sender", "text"}] of every team-channel message `character`
    wrote or was sent, oldest first (a newcomer to a channel, bitten or seduced, was sent
    only the later ones)."""
    return [
        {
            "channel": row["channel"],
            "phase": row["phase"],
            "sender": row["sender"],
            "text": row["text"],
        }
        for row in message_log(game.file).all()
        if row["channel"] != HOST and (row["sender"] == character or character in row["recipients"])
    ]
