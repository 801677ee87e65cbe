"""The open phase (rules: Phases and their ids): who acts and what each may order, judged
only on what they know; engine.werewolf.legality judges an order against it."""

from __future__ import annotations

from collections import Counter

from typing import Any

from engine.core import OrderSpec, Phase
from engine.werewolf.game_state import GameState
from engine.werewolf.model import OrderKind, Target
from engine.werewolf.table import RoleTable
from engine.werewolf.teams import shown_teams


def phase_kind(phase_id: str) -> str:
    """`N0` → night0, `Dn-nominate` → nominate, `Dn-runoff` → runoff, `Dn-vote` → vote,
    `Nn` → night, `Nn-witch` → witch."""
    if phase_id == "N0":
        return "night0"
    if phase_id.startswith("D"):
        return phase_id.split("-", 1)[1]
    return "witch" if phase_id.endswith("-witch") else "night"


def knowledge(state: GameState, table: RoleTable, player: str) -> dict[str, Any]:
    """What the role checks may rely on: only facts `player` already knows."""
    me = state.character(player)
    known: dict[str, Any] = {"teams": shown_teams(me, state.living), "options": dict(state.options)}
    if state.pending is not None and me.role == "witch":
        known["wolves_target"] = state.pending.wolf_target
    return known


def night_kinds(
    state: GameState, table: RoleTable, player: str, kind: str
) -> tuple[OrderKind, ...]:
    """The role orders `player` may give in a night phase of this kind; once-per-game
    orders disappear once used (she knows her own state)."""
    me = state.character(player)
    known: dict[str, Any] | None = None  # made only for a check that reads it
    kinds = []
    for order_kind in table.by_name[me.role].orders:
        if not acts_in(state, order_kind, kind) or (order_kind.once and me.state(order_kind.once)):
            continue
        if order_kind.target == Target.NONE and order_kind.check:
            known = known or knowledge(state, table, player)
            if order_kind.check(me, None, known):
                continue
        kinds.append(order_kind)
    return tuple(kinds)


def full_first_night(state: GameState) -> bool:
    """Option `first_night=full`: N0 is a whole night, as in night-first games."""
    return bool(dict(state.options).get("first_night") == "full")


def acts_in(state: GameState, order_kind: OrderKind, kind: str) -> bool:
    """Whether an order of this kind is given in a phase of `kind`: its own phase kind,
    and in a whole first night (`first_night=full`) every night order in N0 too."""
    return order_kind.phase_kind == kind or (
        kind == "night0" and order_kind.phase_kind == "night" and full_first_night(state)
    )


def lover_of(state: GameState, player: str) -> str | None:
    if player in state.lovers:
        return next(name for name in state.lovers if name != player)
    return None


def day_targets(state: GameState, player: str) -> tuple[str, ...]:
    """Rules Day §2–3: who `player` may nominate now (never the lover)."""
    lover = lover_of(state, player)
    pool = state.runoff.tied if state.phase_id.endswith("-runoff") else state.living  # type: ignore[union-attr]  # a runoff phase carries its runoff
    return tuple(name for name in pool if name != lover and name in state.living)


def on_trial(state: GameState) -> tuple[str, ...]:
    """The defendants still alive (rules: a host kill of a defendant during `Dn-vote`
    leaves a one-defendant trial)."""
    return tuple(d for d in state.defendants if d in state.living)


NOMINATE_NOTE = "the two most nominated go to trial"
RUNOFF_NOTE = "the runoff fills the remaining trial place(s)"
VERDICT_NOTE = "the trial's verdict"
# The words of the day's forms, which a translation catalog words in each language.
DAY_NOTES = (NOMINATE_NOTE, RUNOFF_NOTE, VERDICT_NOTE)


def grammar_for(state: GameState, table: RoleTable, player: str) -> tuple[OrderSpec, ...]:
    kind = phase_kind(state.phase_id)
    if kind in ("nominate", "runoff"):
        return (
            OrderSpec(
                "NOMINATE",
                "NOMINATE <player>",
                day_targets(state, player),
                NOMINATE_NOTE if kind == "nominate" else RUNOFF_NOTE,
            ),
        )
    if kind == "vote":
        lover = lover_of(state, player)
        choices = tuple(d for d in on_trial(state) if d != lover)
        syntax = "VOTE <defendant>"
        if len(on_trial(state)) == 1:
            choices, syntax = choices + ("NO LYNCH",), "VOTE <defendant> or VOTE NO LYNCH"
        return (OrderSpec("VOTE", syntax, choices, VERDICT_NOTE),)
    specs: list[OrderSpec] = []
    kinds = night_kinds(state, table, player, kind)
    teams = knowledge(state, table, player)["teams"] if kinds else {}
    for order_kind in kinds:
        note = (
            order_kind.lone_note
            if order_kind.lone_note and not teams.get(order_kind.team)
            else order_kind.note
        )
        if order_kind.target == Target.NONE:
            specs.append(OrderSpec(order_kind.keyword, order_kind.keyword, (), note))
        else:
            targets = night_targets(state, table, player, order_kind)
            specs.append(
                OrderSpec(order_kind.keyword, f"{order_kind.keyword} <player>", targets, note)
            )
    return tuple(specs)


def self_allowed(state: GameState, order_kind: OrderKind) -> bool:
    if order_kind.target == Target.LIVING:
        return True
    if not order_kind.self_option:
        return False
    return bool(state.option(order_kind.self_option) == "allowed")


def night_targets(
    state: GameState, table: RoleTable, player: str, order_kind: OrderKind
) -> tuple[str, ...]:
    me = state.character(player)
    known = knowledge(state, table, player)
    return tuple(
        name
        for name in state.living
        if (name != player or self_allowed(state, order_kind))
        and not (order_kind.check and order_kind.check(me, name, known))
    )


def current_phase(state: GameState, table: RoleTable) -> Phase | None:
    """Every living player is an actor in every phase; in the night phases players with
    nothing to do get an empty grammar, so forms and timing reveal no role."""
    if state.result is not None:
        return None
    kind = phase_kind(state.phase_id)
    actors = state.living
    grammar = {player: grammar_for(state, table, player) for player in actors}
    return Phase(
        id=state.phase_id,
        kind=kind,
        actors=actors,
        grammar=grammar,
        secret_actors=kind in ("night0", "night", "witch")
        and may_act_in_secret(state, table, kind),
    )


def may_act_in_secret(state: GameState, table: RoleTable, kind: str) -> bool:
    """Whether, as far as the public knows, someone may have an order in this night phase
    (docs/design.md: Mail only where it tells something). Only then must the phase hide
    who acts, by waiting its full length and mailing every living player alike. Decided
    on public facts only: the setup (N0 is secret when a role of the setup acts in it,
    whoever holds it and even if the host removed them) and, for the Witch's turn, the
    revealed roles of the dead (not secret once every Witch of the setup died flipped as
    a Witch, and every holder of a role that takes roles unseen, the Succubus, died flipped
    as it: a Succubus may have taken a Witch's role the night the host removed that Witch,
    whose flip then shows a role that lives on)."""
    if kind == "night0":
        return any(
            acts_in(state, order, kind)
            for role in set(state.setup)
            for order in table.by_name[role].orders
        )
    if kind == "witch":
        if "witch" not in state.setup:
            return False
        shown = (
            Counter(c.role for c in state.characters if not c.alive)
            if state.option("reveal_roles")
            else Counter()
        )
        return shown["witch"] < state.setup.count("witch") or any(
            table.by_name[role].takes_roles and shown[role] < state.setup.count(role)
            for role in set(state.setup)
        )
    return True
