"""The orders each actor may give in the open phase, for order forms and HELP
(rules: Order grammar). Choices list only what the actor already knows."""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from engine.core import OrderSpec
from engine.infiltration.order_table import ORDER_TABLE, USE_LINES
from engine.infiltration.orders.values import NO_LYNCH, NO_REDS_LEFT, sender_view
from engine.infiltration.rooms import TERMINALS
from engine.infiltration.state import RED, TECHNICIANS, UNSEEN_BY_GUARDS, GameState, Step
from engine.infiltration.pieces import DESTROYED

_LINES = {line.order.split()[0]: line for line in ORDER_TABLE}


# An order form's entries repeat from actor to actor and phase to phase (the same vote, the
# same terminal); made once each, since a simulation asks for every actor's form each phase.
@lru_cache(maxsize=1024)
def _spec(keyword: str, choices: tuple[str, ...] = (), terminal: str = "") -> OrderSpec:
    """The form's entry for an order (for USE, that of the `terminal`), worded by the
    ruleset's one order table."""
    line = USE_LINES[terminal] if terminal else _LINES[keyword]
    return OrderSpec(keyword, line.order, choices, line.form_note)


_MOVEMENT_FORM = (
    _spec("MOVE"),
    _spec("STAY"),
    _spec("CODE"),
)  # the same for everyone; MOVE's hint names every room


def actor_grammar(state: GameState, name: str) -> tuple[OrderSpec, ...]:
    """`name`'s orders in the open phase."""
    if state.step == Step.CLASS:
        team = state.characters[name].team
        choices: tuple[str, ...] = ("WARRIOR",) if team == RED else ("WARRIOR", "HACKER", "SNEAKER")
        return (replace(_spec("CLASS", choices), default="your class is Warrior"),)
    if state.step == Step.MOVEMENT:
        return _MOVEMENT_FORM
    view = sender_view(state, name)
    specs = []
    may_act = view.feature in TERMINALS and not (
        view.alert_here and view.role not in UNSEEN_BY_GUARDS
    )
    if may_act and view.condition != DESTROYED:
        choices = ()
        if view.feature in ("SEER", "LOCATOR"):
            choices = tuple(sorted(n for n in view.living))
        specs.append(_spec("USE", choices, view.feature))
        if view.team == RED:
            specs += [_spec("HACK"), _spec("DESTROY")]
        if view.role in TECHNICIANS:
            specs.append(_spec("RESTORE"))
    if may_act and view.role == "engineer":
        specs.append(_spec("REPAIR"))
    if not view.npc:
        specs.append(_vote_spec(state, view.living_players))
    targets = tuple(sorted(view.company)) + tuple(f"GUARD {floor}" for floor in view.guards_here)
    if targets:
        specs.append(_spec("ATTACK", targets))
    return tuple(specs)


def _vote_spec(state: GameState, living_players: frozenset[str]) -> OrderSpec:
    """VOTE, the same for every voter of a state."""
    key = ("form", "VOTE")
    if key not in state.derived:
        state.derived[key] = _spec("VOTE", tuple(sorted(living_players)) + (NO_LYNCH, NO_REDS_LEFT))
    spec: OrderSpec = state.derived[key]
    return spec
