"""What the HELP mail holds besides the rules summary (docs/design.md:
Order mail format — "HELP (the rules summary and the grammar)").

- The whole order table of the player's ruleset, every phase's orders and not only the
  current one's, with the orders the player can give now marked `>>`.
- The grammar of every order argument that has a grammar of its own: Infiltration's
  `USE VALIDITY <statement>` (rules/infiltration.md, Resolution §3, "Validity check
  grammar"), taken from the engine that parses it so the two never disagree.

The tables are written from the rules files' "Order grammar" sections; Werewolf's night
orders are read from the game's role table, so a role the host added (e.g. Vampire) is
listed like a built-in one. Nothing here depends on the state beyond the player's own
current orders, which their form already shows them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from engine.core import Phase
from engine.infiltration.validity import GRAMMAR_HELP as VALIDITY_GRAMMAR

MARK_NOW = ">>"


@dataclass(frozen=True)
class OrderRow:
    """One line of a ruleset's order table: when (`phases` as the rules write it, and the
    `Phase.kind` values it covers), the order's syntax, who gives it, and what it does."""

    phases: str
    kinds: tuple[str, ...]
    order: str
    who: str
    note: str = ""

    @property
    def key(self) -> str:
        return order_key(self.order)


def order_key(syntax: str) -> str:
    """The words that name an order: the leading keywords of its syntax (`USE SEER <player>`
    → `USE SEER`, `VOTE <player>|NO LYNCH` → `VOTE`), so a row of the table and an order
    the engine offers now can be matched."""
    words = []
    for word in syntax.replace("|", " ").split():
        if not re.fullmatch(r"[A-Z]+", word):
            break
        words.append(word)
    return " ".join(words)


# --------------------------------------------------------------------------- Infiltration
_INFILTRATION_ROWS = (  # rules/infiltration.md, Order grammar
    OrderRow("T0-class", ("class",), "CLASS <class>", "every Green",
             "WARRIOR, HACKER or SNEAKER (Reds are always Warriors; no order: Warrior)"),
    OrderRow("Tn-movement", ("movement",), "MOVE <room>", "everyone", "go to any room, A-1 … H-8"),
    OrderRow("Tn-movement", ("movement",), "STAY", "everyone", "stay where you are (the default)"),
    OrderRow("Tn-movement", ("movement",), "CODE <four digits>", "everyone",
             "opens the GHOST Hangar's outer door when you move in"),
    OrderRow("Tn-decision", ("decision",), "USE SEER <player>", "at the Seer terminal", "tells the player's team"),
    OrderRow("Tn-decision", ("decision",), "USE LOCATOR <player>", "at the Locator terminal",
             "tells the player's room"),
    OrderRow("Tn-decision", ("decision",), "USE PSYCHIC", "at the Psychic terminal", "tells how many Reds are alive"),
    OrderRow("Tn-decision", ("decision",), "USE SUPERLOCATOR", "at the Superlocator terminal",
             "tells every living character's room"),
    OrderRow("Tn-decision", ("decision",), "USE GUARD", "at the Guard terminal",
             "tells every living guard's next destination"),
    OrderRow("Tn-decision", ("decision",), "USE HISTORY <room>", "at the History terminal",
             "tells who was in the room, and when"),
    OrderRow("Tn-decision", ("decision",), "USE GAS <room>", "at the Gas terminal", "kills everyone in the room"),
    OrderRow("Tn-decision", ("decision",), "USE LOCK <room>", "at the Lock terminal",
             "locks the room for next turn's movement"),
    OrderRow("Tn-decision", ("decision",), "USE SWITCH <room>", "at the Switch terminal",
             "swaps this terminal with the room's terminal"),
    OrderRow("Tn-decision", ("decision",), "USE MAPDATA <room> <room> <room> <room> <room>",
             "at the Mapdata terminal", "tells five distinct rooms' features"),
    OrderRow("Tn-decision", ("decision",), "USE MESSAGE <text>", "at the Message terminal",
             "publishes the rest of the line unsigned (1-500 characters)"),
    OrderRow("Tn-decision", ("decision",), "USE VALIDITY <statement>", "at the Validity terminal",
             "tells whether the statement is true (its grammar is below)"),
    OrderRow("Tn-decision", ("decision",), "USE COMMANDER <floor>=<room> ...", "at the Commander terminal",
             "sends guards where you say, e.g. A=B-2 C=C-7"),
    OrderRow("Tn-decision", ("decision",), "HACK", "Reds, at a terminal", "the terminal gives wrong results"),
    OrderRow("Tn-decision", ("decision",), "DESTROY", "Reds, at a terminal", "nobody can use the terminal any more"),
    OrderRow("Tn-decision", ("decision",), "RESTORE", "Hackers and Engineers, at a terminal",
             "undoes a hack on the terminal"),
    OrderRow("Tn-decision", ("decision",), "REPAIR", "Engineers, at a terminal",
             "makes a destroyed terminal work again"),
    OrderRow("Tn-decision", ("decision",), "VOTE <player>|NO LYNCH|NO REDS LEFT", "every player",
             "the lynch vote, public once accepted"),
    OrderRow("Tn-decision", ("decision",), "ATTACK <name>, <name> ...", "everyone",
             "attack players in your room, and GUARD <floor>"),
)


def infiltration_rows(rules: Any) -> tuple[OrderRow, ...]:
    return _INFILTRATION_ROWS


# --------------------------------------------------------------------------- Werewolf
_WEREWOLF_DAY_ROWS = (  # rules/werewolf.md, Order grammar
    OrderRow("Dn-nominate / Dn-runoff", ("nominate", "runoff"), "NOMINATE <player>", "every living player",
             "the two most nominated stand trial (yourself allowed)"),
    OrderRow("Dn-vote", ("vote",), "VOTE <defendant> or VOTE NO LYNCH", "every living player",
             "NO LYNCH only when there is one defendant"),
)
_WEREWOLF_PHASES = {"night0": "N0", "night": "Nn", "witch": "Nn-witch"}


def werewolf_rows(rules: Any) -> tuple[OrderRow, ...]:
    """The day orders, then every role's night orders from the game's role table (the
    built-in roles and the host's extra ones), one row per order, naming every role that
    gives it."""
    night: dict[tuple[str, str], dict] = {}
    table = getattr(rules, "table", None)
    for role in getattr(table, "roles", ()):
        for kind in role.orders:
            syntax = kind.keyword if kind.target == "none" else f"{kind.keyword} <player>"
            row = night.setdefault((kind.phase_kind, syntax), {"who": [], "note": kind.note})
            row["who"].append(role.name.replace("_", " ").title())
    order = list(_WEREWOLF_PHASES)
    rows = sorted(night.items(), key=lambda item: order.index(item[0][0]) if item[0][0] in order else len(order))
    return _WEREWOLF_DAY_ROWS + tuple(
        OrderRow(_WEREWOLF_PHASES.get(kind, kind), (kind,), syntax, ", ".join(facts["who"]), facts["note"])
        for (kind, syntax), facts in rows)


ORDER_TABLES: dict[str, Callable[[Any], tuple[OrderRow, ...]]] = {
    "infiltration": infiltration_rows,
    "werewolf": werewolf_rows,
}

# Arguments with a grammar of their own, per ruleset: (the order, its grammar).
ARGUMENT_GRAMMARS: dict[str, tuple[tuple[str, str], ...]] = {
    "infiltration": (("USE VALIDITY <statement>", VALIDITY_GRAMMAR),),
}


# --------------------------------------------------------------------------- the mail's facts
def current_keys(phase: Phase | None, name: str) -> set[str]:
    """The orders `name` can give in the open phase, as order keys."""
    if phase is None or name not in phase.actors:
        return set()
    return {order_key(spec.syntax) for spec in phase.grammar.get(name, ())}


def table_lines(rows: Iterable[OrderRow], phase: Phase | None, name: str) -> list[str]:
    """The order table as aligned text lines, the rows `name` can use now marked `>>`."""
    rows = tuple(rows)
    keys = current_keys(phase, name)
    width = max((len(row.phases) for row in rows), default=0)
    lines = []
    for row in rows:
        now = phase is not None and phase.kind in row.kinds and row.key in keys
        mark = MARK_NOW if now else "  "
        detail = ": ".join(part for part in (row.who, row.note) if part)
        lines.append(f"{mark} {row.phases:<{width}}  {row.order}" + (f"  - {detail}" if detail else ""))
    return lines


def help_facts(ruleset: str, rules: Any, phase: Phase | None, name: str) -> dict:
    """The `orders` facts for templates/mail/help.j2."""
    build = ORDER_TABLES.get(ruleset)
    return {"orders": {
        "table": table_lines(build(rules), phase, name) if build else [],
        "mark": MARK_NOW,
        "phase": phase.id if phase else "",
        "grammars": [{"order": order, "text": text} for order, text in ARGUMENT_GRAMMARS.get(ruleset, ())],
    }}
