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
        raise IllegalOrderError.of("%(target)s is dead; name a living player.", target=order.target)
    if order.target == player and not self_allowed(state, match):
        raise IllegalOrderError.of(
            "you cannot name yourself with %(keyword)s; name another living player.",
            keyword=order.keyword,
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
        raise IllegalOrderError.of(
            "you have already used %(keyword)s, which works once per game.", keyword=order.keyword
        )
    if own is not None and own.check:
        refusal = own.check(me, None, knowledge(state, table, player))
        if refusal:
            raise IllegalOrderError(refusal)
    offered = ", ".join(k.keyword for k in allowed)
    if offered:
        raise IllegalOrderError.of(
            "%(keyword)s is not an order you can give in %(phase)s; your orders here are: "
            "%(offered)s.",
            keyword=order.keyword,
            phase=state.phase_id,
            offered=offered,
        )
    raise IllegalOrderError.of(
        "%(keyword)s is not an order you can give in %(phase)s; you have nothing to order in "
        "this phase.",
        keyword=order.keyword,
        phase=state.phase_id,
    )


def check_day_order(
    state: GameState, player: str, order: Any, kind: str, standing: bool = False
) -> None:
    expected = Vote if kind == "vote" else Nominate
    if not isinstance(order, expected):
        raise IllegalOrderError.of(
            "%(keyword)s is not an order of %(phase)s; send %(expected)s instead.",
            keyword=order.keyword,
            phase=state.phase_id,
            expected=expected.keyword,
        )
    lover = lover_of(state, player)
    if kind == "vote":
        trial = on_trial(state)
        if order.target is None:
            if len(trial) != 1:
                raise IllegalOrderError.of(
                    "NO LYNCH is a choice only when there is one defendant; vote for one of: "
                    "%(names)s.",
                    names=", ".join(trial),
                )
            return None
        if order.target not in trial and not (standing and order.target in state.defendants):
            raise IllegalOrderError.of(
                "%(target)s is not on trial; vote for one of: %(names)s.",
                target=order.target,
                names=", ".join(trial),
            )
    else:
        if not standing_target(state, order, standing):
            raise IllegalOrderError.of(
                "%(target)s is dead; nominate a living player.", target=str(order.target)
            )
        runoff = state.runoff
        if kind == "runoff" and runoff is not None and order.target not in runoff.tied:
            raise IllegalOrderError.of(
                "%(target)s is not in the runoff; nominate one of: %(names)s.",
                target=str(order.target),
                names=", ".join(runoff.tied),
            )
    if order.target is not None and order.target == lover:
        raise IllegalOrderError.of(
            "%(target)s is your lover, and lovers may never nominate or vote for each other.",
            target=order.target,
        )
    return None
