"""The host's actions on a Werewolf game (rules: Day §5, "A host kill during a night"): the
removal of a player, and the notes the host reads about the orders in so far."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine.core import Event, HostActionError, Resolution
from engine.werewolf import day, night, phases
from engine.werewolf.characters import kill, revealed_role
from engine.werewolf.deaths import kill_with_chains
from engine.werewolf.game_state import GameState
from engine.werewolf.model import Night
from engine.werewolf.orders import Kill
from engine.werewolf.table import RoleTable
from engine.werewolf.tally import most_named


def host_kill(
    state: GameState, player: str, reason: str, table: RoleTable, breach: bool = True
) -> Resolution:
    """The host removes a player at once, announced with the reason, then victory is
    checked. `breach`: removed for breaking the rules (a modkill, who never wins under
    `modkill_loses`).

    By day the chains (lovers) follow at once. During a night (`N0`, `Nn`, `Nn-witch`)
    the removal is published and nothing more: the death is dated `Nn`, its chains wait
    for dawn, and dawn does not announce the player again (a Ninja's victim included)."""
    _check_removable(state, player)
    kind = phases.phase_kind(state.phase_id)
    at_night = kind in ("night0", "night", "witch")
    dated = state.phase_id.removesuffix("-witch")
    if at_night:
        characters, deaths = kill(state.characters, player, "host", dated), [(player, "host")]
    else:
        characters, deaths = kill_with_chains(state.characters, player, "host", dated, state.lovers)
    public = _removal_events(state, deaths, reason)
    state = replace(
        state,
        characters=characters,
        pending=_pending_without(state.pending, player, dated),
        removed=state.removed + (player,),
        night_removed=state.night_removed + ((player,) if at_night else ()),
        modkilled=state.modkilled + ((player,) if breach else ()),
    )
    if kind == "vote" and not phases.on_trial(state):
        # Both defendants removed: the day ends with no lynch.
        public.append(Event("no_lynch", {"day": state.day, "defendants": []}))
        return day.nightfall(replace(state, last_lynch=(), removed=()), public, table)
    return night.conclude(state, public, {}, table, start_of_day=False)


def _check_removable(state: GameState, player: str) -> None:
    """Raises HostActionError unless `player` is a living player of a game still on."""
    if state.result is not None:
        raise HostActionError.of("The game is over; nobody can be removed.")
    if player not in [c.name for c in state.characters]:
        raise HostActionError.of(
            "%(player)s is not a player in this game; check the spelling.", player=player
        )
    if not state.character(player).alive:
        raise HostActionError.of("%(player)s is already dead.", player=player)


def _removal_events(state: GameState, deaths: list[tuple[str, str]], reason: str) -> list[Event]:
    """The public events of a removal: the removed player with the host's reason, and each
    one who died with them (a lover), with their roles when roles are revealed."""
    public = []
    for name, cause in deaths:
        data = {"player": name}
        if state.option("reveal_roles"):
            data["role"] = revealed_role(state.character(name))
        if cause == "host":
            public.append(Event("host_kill", {**data, "reason": reason}))
        else:
            public.append(Event("also_died", {**data, "day": state.day}))
    return public


def _pending_without(pending: Night | None, player: str, dated: str) -> Night | None:
    """The pending night (between `Nn` and `Nn-witch`) with `player` dead by the host's
    hand and out of the night's deaths so far, or None when no night is pending."""
    if pending is None:
        return None
    return replace(
        pending,
        dead_now=tuple((n, why) for n, why in pending.dead_now if n != player),
        characters=tuple(
            (
                replace(c, alive=False, death_cause="host", death_phase=dated)
                if c.name == player
                else c
            )
            for c in pending.characters
        ),
    )


def host_notes(state: GameState, standing: Mapping[str, Sequence[Any]]) -> tuple[str, ...]:
    """What the host should know about the `standing` orders (those that still stand; never
    shown to players): a split pack, whose KILLs as they stand kill nobody (or leave it to
    the draw)."""
    if phases.phase_kind(state.phase_id) not in ("night", "night0"):
        return ()
    kills = {
        player: order.target
        for player, given in sorted(standing.items())
        for order in given
        if isinstance(order, Kill)
    }
    if len(most_named(kills.values())) < 2:
        return ()
    listed = "; ".join(f"{wolf} → {target}" for wolf, target in kills.items())
    outcome = (
        "a draw picks one of them" if state.option("wolf_tie") == "random" else "nobody is killed"
    )
    return (f"The pack is split ({listed}): as things stand {outcome}.",)
