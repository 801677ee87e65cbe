"""What the HELP mail holds besides the rules summary (docs/design.md:
Order mail format — "HELP (the rules summary and the grammar)").

- The whole order table of the player's ruleset, every phase's orders and not only the
  current one's, with the orders the player can give now marked `>>`.
- The grammar of every order argument that has a grammar of its own (e.g. Infiltration's
  `USE VALIDITY <statement>`), taken from the engine that parses it.
- The host-run characters (NPCs) of the game, and what the NPC-only classes and teams
  the card names (`npc_explained`: Infiltration's Renegade, Engineer and Neutral) mean,
  for those that are in the game (templates/help/npcs.j2). Which NPC has which class is
  not said: only that the game holds one; a Red NPC's team is never said (only the Reds
  learn it).

Both come from the ruleset's card (engine.core.RulesetCard), so this module only formats
them. Nothing here depends on the state beyond the player's own current orders, which
their form already shows them.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any, Iterable, Sequence

from engine.core import OrderLine, Phase, Ruleset
from pbp.game.record_parts import Npc
from pbp.mail.wrapping import WIDTH

MARK_NOW = ">>"


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


# --------------------------------------------------------------------------- the mail's facts
def current_keys(phase: Phase | None, name: str) -> set[str]:
    """The orders `name` can give in the open phase, as order keys."""
    if phase is None or name not in phase.actors:
        return set()
    return {order_key(spec.syntax) for spec in phase.grammar.get(name, ())}


def table_rows(rows: Iterable[OrderLine], phase: Phase | None, name: str) -> list[dict[str, Any]]:
    """The order table's rows, the ones `name` can use now marked `>>`: each row's mark,
    its phases padded to one column, its order, who gives it and what it does, and how far
    its details are indented (templates/mail/help.j2 words them in the reader's language)."""
    rows = tuple(rows)
    keys = current_keys(phase, name)
    width = max((len(row.phases) for row in rows), default=0)
    indent = len(MARK_NOW) + 1 + width + 2
    return [
        {
            "mark": (
                MARK_NOW
                if phase is not None and phase.kind in row.kinds and order_key(row.order) in keys
                else " " * len(MARK_NOW)
            ),
            "phases": f"{row.phases:<{width}}",
            "order": row.order,
            "who": row.who,
            "note": row.note,
            "indent": indent,
        }
        for row in rows
    ]


def table_lines(
    rows: Iterable[OrderLine], phase: Phase | None, name: str, width_limit: int = WIDTH
) -> list[str]:
    """The order table as aligned text lines (`table_rows`): each order on a line of its
    own, who gives it and what it does under it, wrapped to `width_limit` (a terminal's)."""
    lines = []
    for row in table_rows(rows, phase, name):
        lines.append(f"{row['mark']} {row['phases']}  {row['order']}")
        detail = ": ".join(part for part in (row["who"], row["note"]) if part)
        indent = " " * row["indent"]
        lines.extend(
            textwrap.wrap(detail, width_limit, initial_indent=indent, subsequent_indent=indent)
        )
    return lines


def npc_facts(npcs: Sequence[Npc], explained: Sequence[str]) -> dict[str, Any]:
    """The `npcs` facts for templates/help/npcs.j2: the NPCs' names, and the classes and
    teams among them that the card explains (`explained`; sorted, never tied to a name)."""
    present = {npc.npc_class for npc in npcs} | {npc.team for npc in npcs}
    return {"names": [npc.name for npc in npcs], "explained": sorted(present & set(explained))}


def help_facts(
    rules: Ruleset, phase: Phase | None, name: str, npcs: Sequence[Npc] = ()
) -> dict[str, Any]:
    """The `orders` and `npcs` facts for templates/mail/help.j2, from the ruleset's card
    and the game's NPCs (its record's `npcs`)."""
    return {
        "orders": {
            "table": table_lines(rules.card.orders, phase, name),
            "rows": table_rows(rules.card.orders, phase, name),
            "mark": MARK_NOW,
            "phase": phase.id if phase else "",
            "grammars": [
                {"order": order, "text": text} for order, text in rules.card.argument_grammars
            ],
        },
        "npcs": npc_facts(npcs, rules.card.npc_explained),
    }
