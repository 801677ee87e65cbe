"""A team's current picks of the orders it settles together (engine.core.RulesetCard:
channel_orders; Werewolf: the pack's KILLs), shown to every member in each message and
receipt of the channel while those orders are open, so a pack can agree before the
deadline instead of splitting unawares. The picks are a `Note("picks")`, worded by
templates/mail/_verdicts.j2."""

from __future__ import annotations

from typing import Mapping

from pbp.conversations.channels import channels_of, members
from pbp.game.stored import StoredGame
from pbp.render.verdicts import Note


def current_picks(
    game: StoredGame, channel: str, pending: Mapping[str, str] | None = None
) -> Note | None:
    """The channel's picks so far in the open phase: for each order it settles now, each
    member who gives it and their latest line of it (None: none yet); None when the channel
    settles nothing now. `pending` maps a member to the text of orders accepted in the mail
    being judged, not yet stored."""
    if game.phase is None:
        return None
    keywords = [keyword for name, keyword in game.rules.card.channel_orders if name == channel]
    team = members(game, channel)
    orders = []
    for keyword in keywords:
        givers = [
            m for m in team if any(s.keyword == keyword for s in game.phase.grammar.get(m, ()))
        ]
        if not givers:
            continue
        latest = game.latest_orders(game.phase.id)
        picks = []
        for member in givers:
            text = (pending or {}).get(member)
            if text is None:
                text = latest[member].text if member in latest else ""
            chosen = [line for line in text.splitlines() if line.split()[:1] == [keyword]]
            picks.append((member, chosen[-1] if chosen else None))
        orders.append((keyword, tuple(picks)))
    if not orders:
        return None
    return Note(
        "picks",
        channel=channel,
        phase_words=game.rules.card.phase_words(game.phase.id),
        orders=tuple(orders),
    )


def picks_of_teams(game: StoredGame, name: str, pending: Mapping[str, str]) -> list[Note]:
    """The current picks of every channel `name` is in (for the receipt of their orders)."""
    return [
        picks
        for channel in channels_of(game, name)
        if (picks := current_picks(game, channel, pending))
    ]
