"""Infiltration's one order table (rules/infiltration.md, Order grammar): what HELP lists
and what the order forms (engine.infiltration.orders.grammar) print, on the ruleset card
(engine.infiltration.card)."""

from __future__ import annotations

from engine.core import OrderLine

_DECISION = ("Tn-decision", ("decision",))

# The order table (rules/infiltration.md, Order grammar); `hint` is what an order form says.
ORDER_TABLE = (
    OrderLine(
        "T0-class",
        ("class",),
        "CLASS <class>",
        "every Green",
        "WARRIOR, HACKER or SNEAKER (Reds are always Warriors; no order: Warrior)",
        "your class for the whole game",
    ),
    OrderLine(
        "Tn-movement",
        ("movement",),
        "MOVE <room>",
        "everyone",
        "go to any room, A-1 … H-8",
        "any room, A-1 … H-8",
    ),
    OrderLine("Tn-movement", ("movement",), "STAY", "everyone", "stay where you are (the default)"),
    OrderLine(
        "Tn-movement",
        ("movement",),
        "CODE <four digits>",
        "everyone",
        "opens the GHOST Hangar's outer door when you move in",
        "opens the hangar's outer door when you move in",
    ),
    OrderLine(*_DECISION, "USE SEER <player>", "at the Seer terminal", "tells the player's team"),
    OrderLine(
        *_DECISION, "USE LOCATOR <player>", "at the Locator terminal", "tells the player's room"
    ),
    OrderLine(
        *_DECISION, "USE PSYCHIC", "at the Psychic terminal", "tells how many Reds are alive"
    ),
    OrderLine(
        *_DECISION,
        "USE SUPERLOCATOR",
        "at the Superlocator terminal",
        "tells every living character's room",
    ),
    OrderLine(
        *_DECISION,
        "USE GUARD",
        "at the Guard terminal",
        "tells every living guard's next destination",
    ),
    OrderLine(
        *_DECISION,
        "USE HISTORY <room>",
        "at the History terminal",
        "tells who was in the room, and when",
    ),
    OrderLine(
        *_DECISION,
        "USE GAS <room>",
        "at the Gas terminal",
        "kills everyone in the room, guards too",
    ),
    OrderLine(
        *_DECISION,
        "USE LOCK <room>",
        "at the Lock terminal",
        "locks the room for next turn's movement",
    ),
    OrderLine(
        *_DECISION,
        "USE SWITCH <room>",
        "at the Switch terminal",
        "swaps this terminal with the room's terminal",
    ),
    OrderLine(
        *_DECISION,
        "USE MAPDATA <room> <room> <room> <room> <room>",
        "at the Mapdata terminal",
        "tells five distinct rooms' features",
    ),
    OrderLine(
        *_DECISION,
        "USE MESSAGE <text>",
        "at the Message terminal",
        "publishes the rest of the line unsigned (1-500 characters)",
    ),
    OrderLine(
        *_DECISION,
        "USE VALIDITY <statement>",
        "at the Validity terminal",
        "tells whether the statement is true (its grammar is below)",
        "tells whether the statement is true",
    ),
    OrderLine(
        *_DECISION,
        "USE COMMANDER <floor>=<room> ...",
        "at the Commander terminal",
        "sends guards where you say, e.g. A=B-2 C=C-7",
    ),
    OrderLine(
        *_DECISION, "HACK", "Reds, at a terminal", "the terminal gives wrong results from now on"
    ),
    OrderLine(*_DECISION, "DESTROY", "Reds, at a terminal", "nobody can use the terminal any more"),
    OrderLine(
        *_DECISION,
        "RESTORE",
        "Hackers and Engineers, at a terminal",
        "undoes a hack on the terminal",
        "undoes a hack on this terminal",
    ),
    OrderLine(
        *_DECISION, "REPAIR", "Engineers, at a terminal", "makes a destroyed terminal work again"
    ),
    OrderLine(
        *_DECISION,
        "VOTE <player>|NO LYNCH|NO REDS LEFT",
        "every player",
        "the lynch vote, public once accepted",
        "the lynch vote",
    ),
    OrderLine(
        *_DECISION,
        "ATTACK <name>, <name> ...",
        "everyone",
        "attack players in your room, and GUARD <floor>",
        "attack who is in your room",
    ),
)

USE_LINES = {line.order.split()[1]: line for line in ORDER_TABLE if line.order.startswith("USE ")}
