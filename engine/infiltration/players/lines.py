"""Order lines checked with the real parser against what the player knows, read from the
player's own view (never the state): a scripted block always parses."""

from __future__ import annotations

from typing import Any, Mapping

from engine.core import OrderError
from engine.infiltration.orders.order_parsing import parse_line
from engine.infiltration.orders.values import SenderView
from engine.names import keyed_names


def sender_of(view: Mapping[str, Any]) -> SenderView:
    """The facts the parser judges an order against, as the player's view shows them."""
    me = view["me"]
    players = view["players"]
    present = list(me.get("present", ()))
    return SenderView(
        phase=str(view["step"]),
        name=me["name"],
        team=me["team"],
        role=me["class"] or "",
        npc=me["npc"],
        alive=me["alive"],
        room=me["room"],
        feature=me["feature"],
        condition=me["condition"],
        names=keyed_names(tuple(p["name"] for p in players)),
        living=frozenset(p["name"] for p in players if p["alive"]),
        living_players=frozenset(p["name"] for p in players if p["alive"] and not p["npc"]),
        company=frozenset(who for who in present if not who.startswith("guard ")),
        guards_here=tuple(sorted(who.split()[1] for who in present if who.startswith("guard "))),
        alert_here=bool(me["alert_here"]),
    )


def parseable(lines: list[str], view: Mapping[str, Any]) -> list[str]:
    """The lines the parser accepts (a scripted player never sends a broken block). Only a
    terminal's use is free text that the player builds; every other line is made from the
    choices of the order form, and is not parsed twice."""
    sender = None
    good = []
    for line in lines:
        if line.startswith("USE "):
            sender = sender or sender_of(view)
            try:
                parse_line(line, sender)
            except OrderError:
                continue
        good.append(line)
    return good
