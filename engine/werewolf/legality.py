"""Whether a player may give an order now (rules: Order grammar; Day; Night): stage two
of parsing, after the order's syntax, judged on the phase and what the player knows
(engine.werewolf.phases)."""

from __future__ import annotations

from typing import Any, NoReturn, Sequence

from engine.core import IllegalOrderError
from engine.werewolf.game_state import GameState
from engine.werewolf.model import OrderKind
from engine.werewolf.orders import Nominate, PlainOrder, Vote
from engine.werewolf.phases import (
    knowledge,
    lover_of,
    night_kinds,
    on_trial,
    phase_kind,
    self_allowed,
)
from engine.werewolf.table import RoleTable


def standing_target(state: GameState, order: Any, standing: bool) -> bool:
    """Whether `order` names a player who still counts as a target: a living one, or, for
    an order that stands from before a host kill (`standing`), one the host removed in
    this phase (the order keeps its meaning and does nothing)."""
    return order.target in state.living or (standing and order.target in state.removed)


def check_legal(
    state: GameState, table: RoleTable, player: str, order: Any, standing: bool = False
) -> None:
    """Stage two of parsing: raise IllegalOrderError if `player` may not give `order` now.
    `standing`: the order was accepted earlier in this phase and is judged again at the
    deadline, so a target the host removed since then does not void it."""
    kind = phase_kind(state.phase_id)
    if kind in ("nominate", "runoff", "vote"):
        return check_day_order(state, player, order, kind, standing)
    allowed = night_kinds(state, table, player, kind)
    match = next((k for k in allowed if k.order is type(order)), None)
    if match is None:
        _refuse_unoffered(state, table, player, order, kind, allowed)
    if isinstance(order, PlainOrder):
        return None
    if not standing_target(state, order, standing):
        raise IllegalOrderError(f"{order.target} is dead; name a living player.")
    if order.target == player and not self_allowed(state, match):
        raise IllegalOrderError(
            f"you cannot name yourself with {order.keyword}; name another living player."
        )
    if match.check and order.target in state.living:
        refusal = match.check(
            state.character(player), order.target, knowledge(state, table, player)
        )
        if refusal:
            raise IllegalOrderError(refusal)
    return None


def _refuse_unoffered(
    state: GameState,
    table: RoleTable,
    player: str,
    order: Any,
    kind: str,
    allowed: Sequence[OrderKind],
) -> NoReturn:
    """Raise the reason `order` is not among `player`'s orders now: a once-per-game order
    already used, its role's own refusal, or else the orders the phase offers."""
    me = state.character(player)
    own = next(
        (
            k
            for k in table.by_name[me.role].orders
            if k.order is type(order) and k.phase_kind == kind
        ),
        None,
    )
    if own is not None and own.once and me.state(own.once):
        raise IllegalOrderError(
            f"you have already used {order.keyword}, which works once per game."
        )
    if own is not None and own.check:
        refusal = own.check(me, None, knowledge(state, table, player))
        if refusal:
            raise IllegalOrderError(refusal)
    offered = ", ".join(k.keyword for k in allowed)
    you_may = (
        f"your orders here are: {offered}."
        if offered
        else "you have nothing to order in this phase."
    )
    raise IllegalOrderError(
        f"{order.keyword} is not an order you can give in {state.phase_id}; {you_may}"
    )


def check_day_order(
    state: GameState, player: str, order: Any, kind: str, standing: bool = False
) -> None:
    expected = Vote if kind == "vote" else Nominate
    if not isinstance(order, expected):
        raise IllegalOrderError(
            f"{order.keyword} is not an order of {state.phase_id}; send {expected.keyword} instead."
        )
    lover = lover_of(state, player)
    if kind == "vote":
        trial = on_trial(state)
        if order.target is None:
            if len(trial) != 1:
                raise IllegalOrderError(
                    "NO LYNCH is a choice only when there is one defendant; vote for one of: "
                    + ", ".join(trial)
                    + "."
                )
            return None
        if order.target not in trial and not (standing and order.target in state.defendants):
            raise IllegalOrderError(
                f"{order.target} is not on trial; vote for one of: {', '.join(trial)}."
            )
    else:
        if not standing_target(state, order, standing):
            raise IllegalOrderError(f"{order.target} is dead; nominate a living player.")
        runoff = state.runoff
        if kind == "runoff" and runoff is not None and order.target not in runoff.tied:
            raise IllegalOrderError(
                f"{order.target} is not in the runoff; nominate one of: {', '.join(runoff.tied)}."
            )
    if order.target is not None and order.target == lover:
        raise IllegalOrderError(
            f"{order.target} is your lover, and lovers may never nominate or vote for each other."
        )
    return None
