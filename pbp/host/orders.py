"""The orders of the open phase, as the host sees them (`pbp orders`) and enters them
(`pbp submit`) (docs/design.md: Command line).
"""
from __future__ import annotations

from engine.core import OrderBlockError
from pbp import schedule
from pbp.errors import UserError
from pbp.game.notices import notify_players
from pbp.game.record import StoredGame, load, running
from pbp.moderator import Moderator
from pbp.reminders import players_to_remind
from pbp.standing_orders import standing_orders
from pbp.timezones import render_timestamp


HOST = "host"  # the mail_key of orders the host entered with `pbp submit`


def orders_overview(moderator: Moderator, game_id: str) -> str:
    """Who has sent what in the open phase, and who has not (`pbp orders <game>`)."""
    game = load(moderator, game_id)
    if game.phase is None:
        return f"Game {game_id} is over; no orders are taken."
    latest = game.latest_orders(game.phase.id)
    head = [f"Game {game_id}, phase {game.phase.id}: {game.clock.host_line(moderator.clock())}"]
    sent, missing = [], []
    # A Werewolf night lists every living player as an actor, most with nothing to order
    # (so that timing reveals nothing); the host is told apart who is really awaited.
    awaited = set(players_to_remind(game.phase))
    idle = [a for a in game.phase.actors if a not in latest and a not in awaited]
    for actor in game.phase.actors:
        row = latest.get(actor)
        if row is None:
            if actor not in idle:
                missing.append(actor)
            continue
        who = " (entered by the host)" if row.get("mail_key") == HOST else ""
        sent.append(f"  {actor}, received {render_timestamp(row['received'])}{who}:")
        sent.extend(f"      {line}" for line in (row["text"].splitlines() or ["(no orders: the rules' default)"]))
    head.append(f"Orders in ({len(sent and [a for a in game.phase.actors if a in latest])} of "
                f"{len(game.phase.actors)}):")
    head.extend(sent or ["  none yet"])
    head.append(f"No orders yet ({len(missing)}): {', '.join(missing) if missing else 'nobody'}")
    if idle:
        head.append(f"Nothing to order in this phase ({len(idle)}): {', '.join(idle)}")
    head.extend(_host_notes(game, latest))
    return "\n".join(head)


def _host_notes(game: StoredGame, latest: dict[str, dict]) -> list[str]:
    """The ruleset's remarks for the host on the orders in so far (Werewolf: a split pack),
    from the blocks as the deadline would read them."""
    host_notes = getattr(game.rules, "host_notes", None)
    if host_notes is None:
        return []
    blocks = {player: row["text"].splitlines() for player, row in latest.items()}
    orders = standing_orders(game.rules, game.state, game.phase, blocks)
    return [f"Note: {note}" for note in host_notes(game.state, orders)]


def submit(moderator: Moderator, game_id: str, player: str, text: str) -> list[str]:
    """The host enters orders for an NPC or for a player who sent them another way.
    `text` is order lines, or a whole `BEGIN ORDERS … END ORDERS` block (its TOKEN line is
    not needed). Parsed by the same engine parser; accepted whole or refused whole."""
    game = running(moderator, game_id)
    name = game.character(player)
    if name not in game.phase.actors:
        raise UserError(f"{name} has no orders to give in {game.phase.id}.")
    lines = _order_lines(text, game_id)
    try:
        orders = game.rules.parse_orders(game.state, name, lines)
    except OrderBlockError as failure:
        listing = "; ".join(str(e) for e in failure.errors)
        raise UserError(f"The orders for {name} were not accepted: {listing}") from None
    canonical = [str(order) for order in orders]
    received = schedule.to_text(moderator.clock())
    with game.file.transaction():
        game.file.orders.insert({"phase": game.phase.id, "player": name, "text": "\n".join(canonical),
                                 "received": received, "message_id": "", "mail_key": HOST})
        entry = next((e for e in game.record["roster"] if e["name"] == name), None)
        if entry is not None:
            shown = canonical or ["(no orders: the rules' default applies)"]
            notify_players(moderator, game, "receipt", only={name},
                           headline=f"The host entered orders for you for {game.phase.id}.",
                           lines=["Accepted:", *[f"  {line}" for line in shown],
                                  "These replace any orders you sent earlier for this phase."])
    return canonical


def _order_lines(text: str, game_id: str) -> list[str]:
    lines = text.replace("\r\n", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip().upper().startswith("BEGIN ORDERS")]
    if not starts:
        return [line for line in lines if not line.strip().upper().startswith("TOKEN:")]
    body = lines[starts[0] + 1:]
    ends = [i for i, line in enumerate(body) if line.strip().upper() == "END ORDERS"]
    if not ends:
        raise UserError("The orders file has BEGIN ORDERS but no END ORDERS; close the block.")
    return [line for line in body[:ends[0]] if not line.strip().upper().startswith("TOKEN:")]
