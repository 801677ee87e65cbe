"""What the host actions page shows of a game before the host acts: its clock, who is
alive (players and NPCs, with whom a substitute or a modkill may be about), who has
orders to give, the substitutes' list, the moderator options, and the mail queued
(docs/design.md: The host's desk in the browser — actions)."""

from __future__ import annotations

from typing import Any

from pbp.game.options import OPTIONS
from pbp.game.stored import load
from pbp.host.options_change import change_options
from pbp.moderator import Moderator
from pbp.schedule import now
from pbp.storage.open_games import find_open_game


def actions_facts(moderator: Moderator, game_id: str) -> dict[str, Any]:
    """The game's facts for the actions page (a reader's moderator suffices)."""
    game = load(moderator, game_id)
    record = game.record
    dead = game.dead() if game.phase is not None else set(record.characters)
    players = [
        {
            "character": p.name,
            "player": p.player,
            "email": p.email,
            "zone": p.timezone or "UTC",
            "forum_name": p.forum_name,
            "alive": p.name not in dead,
        }
        for p in record.roster
    ]
    npcs = [name for name in record.npc_names if name not in dead]
    signups = find_open_game(moderator.folder, record.id)
    options = change_options(moderator, record.id, {})  # no change: only reads them
    return {
        "id": record.id,
        "ruleset": record.ruleset,
        "phase": record.phase_id or None,
        "over": record.result is not None,
        "deadline": record.deadline or None,
        "clock": game.clock.host_line(now()),
        "paused": record.paused is not None,
        "players": players,
        "npcs": npcs,
        "living": [p["character"] for p in players if p["alive"]] + npcs,
        "actors": list(game.phase.actors) if game.phase is not None else [],
        "orders_in": set(game.latest_orders(game.phase.id)) if game.phase is not None else set(),
        "substitutes": signups.substitutes if signups is not None else [],
        "options": [
            {"name": name, "value": options.get(name, ""), "help": option.help}
            for name, option in sorted(OPTIONS.items())
        ],
        "queued": moderator.outbox.pending(),
    }
