"""Which post cast each player's standing public order (docs/design.md: Votes in the
thread): read from the game's order log, where a vote taken from the thread keeps its
post's address and time. The running count links each vote to its post, and the thread's
judge dates a standing vote from the post that cast it."""

from __future__ import annotations

from typing import Any, Mapping

from pbp.game.stored import StoredGame
from pbp.game.vote_channels import public_keyword
from pbp.timezones import as_utc


def public_since(
    game: StoredGame, phase: str, player: str, keyword: str
) -> Mapping[str, Any] | None:
    """The order row from which `player`'s current `keyword` order has stood unchanged (the
    one that cast it), or None when they have none."""
    card = game.rules.card
    rows = game.file.orders.where("phase", phase, also=("player", player))
    current = [
        line
        for line in (rows[-1]["text"].splitlines() if rows else ())
        if public_keyword(line, card) == keyword
    ]
    if not current:
        return None
    since = rows[-1]
    for row in reversed(rows):
        if [
            line for line in row["text"].splitlines() if public_keyword(line, card) == keyword
        ] != current:
            break
        since = row
    return since


def vote_links(game: StoredGame) -> dict[str, str]:
    """Each player's post that cast their current public order in the open phase, for the
    running count to link to (a vote by mail has none)."""
    if game.phase is None:
        return {}
    links = {}
    for player in game.latest_orders(game.phase.id):
        for keyword in game.rules.card.public_orders:
            since = public_since(game, game.phase.id, player, keyword)
            if since is not None and since.get("post_url"):
                links[player] = str(since["post_url"])
    return links


def cast_time(row: Mapping[str, Any]) -> float:
    """When the order of a row was cast: its post's time, else when its mail came."""
    return (
        float(row["cast_at"])
        if row.get("cast_at") is not None
        else as_utc(row["received"]).timestamp()
    )


def deleted_vote_posts(game: StoredGame) -> list[str]:
    """The players whose current public order was cast by a post since deleted: the vote
    stands (docs/rules: Deletions), and the running count says its link leads nowhere."""
    if game.phase is None:
        return []
    deleted = {row["post"] for row in game.file.thread_posts.each() if row.get("deleted")}
    if not deleted:
        return []
    players = set()
    for player in game.latest_orders(game.phase.id):
        for keyword in game.rules.card.public_orders:
            since = public_since(game, game.phase.id, player, keyword)
            if since is not None and since.get("post") in deleted:
                players.add(player)
    return sorted(players)
