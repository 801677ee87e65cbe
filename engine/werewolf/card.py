"""Werewolf's ruleset card (engine.core.RulesetCard): the phase kinds and their words, the
order table for HELP — the day orders, then every role's night orders read from the
game's role table, so a role the host added is listed like a built-in one —
and the words a name may not be (rules: Order grammar)."""
from __future__ import annotations

from typing import Any

from engine.core import OrderLine, PhaseKind, RulesetCard
from engine.werewolf.table import RoleTable

_DAY_LINES = (
    OrderLine("Dn-nominate / Dn-runoff", ("nominate", "runoff"), "NOMINATE <player>", "every living player",
              "the two most nominated stand trial (yourself allowed)"),
    OrderLine("Dn-vote", ("vote",), "VOTE <defendant> or VOTE NO LYNCH", "every living player",
              "NO LYNCH only when there is one defendant"),
)
# Night phase kinds, in the order they come, with the words the rules use for them.
_NIGHT_PHASES = {"night0": "N0", "night": "Nn", "witch": "Nn-witch"}

PHASE_KINDS = (PhaseKind("night0", "night 0"), PhaseKind("nominate", "each day's nominations"),
               PhaseKind("runoff", "a runoff nomination round"), PhaseKind("vote", "each day's vote"),
               PhaseKind("night", "each night"), PhaseKind("witch", "the Witch's turn after each night"))


_DAY_STEPS = {"nominate": "nominations", "runoff": "runoff nominations", "vote": "vote"}


def phase_words(phase_id: str) -> str:
    """`Night 0`, `Night 1`, `Night 1 — the Witch's turn`, `Day 2 — nominations`,
    `Day 2 — runoff nominations`, `Day 2 — vote` (any other id is returned as it is)."""
    number, _, step = phase_id[1:].partition("-")
    if not number.isdigit():
        return phase_id
    if phase_id.startswith("N") and step in ("", "witch"):
        return f"Night {number}" + (" — the Witch's turn" if step else "")
    if phase_id.startswith("D") and step in _DAY_STEPS:
        return f"Day {number} — {_DAY_STEPS[step]}"
    return phase_id


def order_table(table: RoleTable) -> tuple[OrderLine, ...]:
    """The day orders, then one line per night order naming every role that gives it."""
    night: dict[tuple[str, str], dict[str, Any]] = {}
    for role in table.roles:
        for kind in role.orders:
            syntax = kind.keyword if kind.target == "none" else f"{kind.keyword} <player>"
            line = night.setdefault((kind.phase_kind, syntax), {"who": [], "note": kind.note})
            line["who"].append(role.name.replace("_", " ").title())
    order = list(_NIGHT_PHASES)
    lines = sorted(night.items(), key=lambda item: order.index(item[0][0]) if item[0][0] in order else len(order))
    return _DAY_LINES + tuple(
        OrderLine(_NIGHT_PHASES.get(kind, kind), (kind,), syntax, ", ".join(facts["who"]), facts["note"])
        for (kind, syntax), facts in lines)


def make_card(table: RoleTable) -> RulesetCard:
    """The card of a Werewolf game played with `table`'s roles."""
    keywords = {kind.keyword for role in table.roles for kind in role.orders}
    return RulesetCard(
        game_id_prefix="ww",
        phase_kinds=PHASE_KINDS,
        orders=order_table(table),
        reserved_words=frozenset(word.upper() for word in (*keywords, "NOMINATE", "VOTE", "NO", "LYNCH")),
        public_orders=("NOMINATE", "VOTE"),
        phase_words=phase_words,
    )
