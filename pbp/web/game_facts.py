"""What a game's page shows, read from one loaded game (docs/design.md: The host's desk in
the browser — a game's page): the roster as `pbp show` tells it, the open phase's orders
as `pbp orders`, the running count as the forum's count post shows it with each vote's
source, the channels as `pbp channel`, the host's log. The state is decoded once per
request (`pbp.game.stored.load`); every view and status below is made from it once
(`StoredGame.view`, `StoredGame.status`)."""

from __future__ import annotations

from pbp.game.order_row import OrderRow

from typing import Any

from pbp.conversations.channels import HOST, message_log
from pbp.forum.thread.forum_names import linked_accounts
from pbp.forum.thread.standing_votes import vote_links
from pbp.game.notifying.reminders import players_to_remind
from pbp.game.stored import StoredGame
from pbp.game.tally import running_tally
from pbp.host.orders import HOST as ENTERED_BY_HOST
from pbp.storage.datafolder import DataFolder
from pbp.storage.open_games import find_open_game


def roster(game: StoredGame) -> list[dict[str, Any]]:
    """Each character: its role or class and team (the ruleset card's summary of its own
    view), alive or dead, NPC, who plays it (and played it before), forum name, zone."""
    accounts = linked_accounts(game)
    rows = []
    for name in game.record.characters:
        status = game.status(name)
        summary = list(game.rules.card.character_summary(game.view(name)))
        entry = game.roster.by_name(name)
        rows.append(
            {
                "name": name,
                "npc": name in game.record.npc_names,
                "alive": status.alive,
                "silenced": status.silenced,
                "role": summary[0] if summary else (status.label or "no role"),
                "more": summary[1:],
                "played_by": entry.played_by if entry else "",
                "before": [s.left for s in game.record.substitutions if s.character == name],
                "forum": accounts.get(name, ""),
                "zone": game.zone_of(name) or "UTC" if entry else "",
            }
        )
    return rows


def substitutes(folder: DataFolder, game_id: str) -> list[str]:
    """The names on the game's substitutes' list (a game opened for sign-ups), in order."""
    signups = find_open_game(folder, game_id)
    return [entry.name for entry in signups.substitutes] if signups else []


def orders(game: StoredGame) -> dict[str, Any] | None:
    """The open phase's latest orders of each actor (how they came), who is awaited, who
    has nothing to order; None once the game is over."""
    phase = game.phase
    if phase is None:
        return None
    latest = game.latest_orders(phase.id)
    awaited = set(players_to_remind(phase))
    sent = [
        {"player": actor, "received": row.received, "lines": row.lines, "source": _source(row)}
        for actor in phase.actors
        if (row := latest.get(actor)) is not None
    ]
    return {
        "sent": sent,
        "actors": len(phase.actors),
        "awaited": [actor for actor in phase.actors if actor in awaited and actor not in latest],
        "idle": [actor for actor in phase.actors if actor not in awaited and actor not in latest],
    }


def _source(row: OrderRow | None) -> dict[str, str]:
    if row is not None and row.mail_key == ENTERED_BY_HOST:
        return {"how": "host", "url": ""}
    if row is not None and row.extra.get("source") == "thread":
        return {"how": "thread", "url": str(row.extra.get("post_url") or "")}
    return {"how": "mail", "url": ""}


def count(game: StoredGame) -> dict[str, Any] | None:
    """The running count (pbp.game.tally) with each voter's source: the thread post that
    cast the vote (its address), mail, or the host who entered it."""
    counted = running_tally(game)
    if counted is None:
        return None
    links = vote_links(game)
    latest = game.latest_orders(game.phase.id) if game.phase else {}
    for row in counted["rows"]:
        row["sources"] = [
            {
                "voter": voter,
                **(
                    {"how": "thread", "url": links[voter]}
                    if voter in links
                    else _source(latest.get(voter))
                ),
            }
            for voter in row["voters"]
        ]
    return counted


def channels(game: StoredGame) -> dict[str, list[dict[str, Any]]]:
    """Every team channel's messages (what `pbp channel <game> <channel>` lists), by
    channel; the host's channel is `conversations`'."""
    found: dict[str, list[dict[str, Any]]] = {}
    for row in message_log(game.file).all():
        if row["channel"] != HOST:
            found.setdefault(row["channel"], []).append(dict(row))
    return found


def conversations(game: StoredGame) -> list[dict[str, Any]]:
    """Each player's talk with the host, the player whose last word waits for an answer
    first: `{"player", "messages", "waiting"}`."""
    talks: dict[str, list[dict[str, Any]]] = {}
    for row in message_log(game.file).all():
        if row["channel"] == HOST:
            talks.setdefault(row["player"], []).append(dict(row))
    shown = [
        {"player": player, "messages": rows, "waiting": rows[-1]["sender"] != HOST}
        for player, rows in talks.items()
    ]
    return sorted(shown, key=lambda talk: not talk["waiting"])


def host_actions(game: StoredGame) -> list[dict[str, Any]]:
    """The host's log, newest first: each action's kind, time and the rest of its facts."""
    shown = [(action, action.to_json()) for action in reversed(game.record.host_actions)]
    return [
        {
            "kind": action.kind,
            "at": action.at,
            "facts": {key: value for key, value in stored.items() if key not in ("kind", "at")},
        }
        for action, stored in shown
    ]
