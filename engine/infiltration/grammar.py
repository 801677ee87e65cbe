"""The orders each actor may give in the open phase, for order forms and HELP
(rules: Order grammar). Choices list only what the actor already knows."""
from __future__ import annotations

from engine.core import OrderLine, OrderSpec
from engine.infiltration.card import ORDER_TABLE, USE_LINES
from engine.infiltration.orders import NO_LYNCH, NO_REDS_LEFT, Everyone, sender_view
from engine.infiltration.rooms import TERMINALS
from engine.infiltration.state import DESTROYED, RED, TECHNICIANS, UNSEEN_BY_GUARDS, GameState, Step

_LINES = {line.order.split()[0]: line for line in ORDER_TABLE}


def _spec(keyword: str, choices: tuple[str, ...] = (), line: OrderLine | None = None) -> OrderSpec:
    """The form's entry for an order, worded by the ruleset's one order table."""
    line = line or _LINES[keyword]
    return OrderSpec(keyword, line.order, choices, line.form_note)


_MOVEMENT_FORM = (_spec("MOVE"), _spec("STAY"), _spec("CODE"))  # the same for everyone; MOVE's hint names every room


def actor_grammar(state: GameState, name: str, shared: Everyone | None = None) -> tuple[OrderSpec, ...]:
    """`name`'s orders in the open phase; `shared` as for `sender_view`."""
    if state.step == Step.CLASS:
        team = state.characters[name].team
        choices: tuple[str, ...] = ("WARRIOR",) if team == RED else ("WARRIOR", "HACKER", "SNEAKER")
        return (_spec("CLASS", choices),)
    if state.step == Step.MOVEMENT:
        return _MOVEMENT_FORM
    view = sender_view(state, name, shared)
    specs = []
    may_act = view.feature in TERMINALS and not (view.alert_here and view.role not in UNSEEN_BY_GUARDS)
    if may_act and view.condition != DESTROYED:
        choices = ()
        if view.feature in ("SEER", "LOCATOR"):
            choices = tuple(sorted(n for n in view.living))
        specs.append(_spec("USE", choices, USE_LINES[view.feature]))
        if view.team == RED:
            specs += [_spec("HACK"), _spec("DESTROY")]
        if view.role in TECHNICIANS:
            specs.append(_spec("RESTORE"))
    if may_act and view.role == "engineer":
        specs.append(_spec("REPAIR"))
    if not view.npc:
        specs.append(_spec("VOTE", tuple(sorted(view.living_players)) + (NO_LYNCH, NO_REDS_LEFT)))
    targets = tuple(sorted(view.company)) + tuple(f"GUARD {floor}" for floor in view.guards_here)
    if targets:
        specs.append(_spec("ATTACK", targets))
    return tuple(specs)
