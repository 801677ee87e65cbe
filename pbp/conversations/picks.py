"""A team's current picks of the orders it settles together (engine.core.RulesetCard:
channel_orders; Werewolf: the pack's KILLs), shown to every member in each message and
receipt of the channel while those orders are open, so a pack can agree before the
deadline instead of splitting unawares."""
from __future__ import annotations

from typing import Mapping

from pbp.conversations.channels import channels_of, members
from pbp.game.stored import StoredGame


def current_picks(game: StoredGame, channel: str, pending: Mapping[str, str] | None = None) -> str:
    """One line of the channel's picks so far in the open phase, or "" when the channel
    settles nothing now. `pending` maps a member to the text of orders accepted in the
    mail being judged, not yet stored."""
    if game.phase is None:
        return ""
    keywords = [keyword for name, keyword in game.rules.card.channel_orders if name == channel]
    team = members(game, channel)
    lines = []
    for keyword in keywords:
        givers = [m for m in team if any(s.keyword == keyword for s in game.phase.grammar.get(m, ()))]
        if not givers:
            continue
        latest = game.latest_orders(game.phase.id)
        picks = []
        for member in givers:
            text = (pending or {}).get(member)
            if text is None:
                text = latest[member]["text"] if member in latest else ""
            chosen = [line for line in text.splitlines() if line.split()[:1] == [keyword]]
            picks.append(f"{member}: {chosen[-1] if chosen else 'none yet'}")
        lines.append(f"The {channel}'s {keyword} orders so far in {game.phase.id}: {'; '.join(picks)}.")
    return "\n".join(lines)


def picks_of_teams(game: StoredGame, name: str, pending: Mapping[str, str]) -> list[str]:
    """The current picks of every channel `name` is in (for the receipt of their orders)."""
    return [line for channel in channels_of(game, name) if (line := current_picks(game, channel, pending))]
