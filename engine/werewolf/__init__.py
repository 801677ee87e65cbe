"""Werewolf (rules: rules/werewolf.md): the ruleset object behind the engine contract.

`make_ruleset(extra_roles=(...))` builds it from the built-in role table plus roles the
caller imported itself (docs/design.md: Extensibility); this package never imports a role by
name from outside.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine.core import (
    Event, GameSetupError, IllegalOrderError, OptionSpec, OrderBlockError, Phase, PlayerSpec, Resolution, Result,
    resolve_options,
)
from engine.werewolf import codec, day, night, phases, scripted, setups, views
from engine.werewolf.deaths import kill_with_chains
from engine.werewolf.model import Character, GameState, NightStep, Role
from engine.werewolf.orders import parse_block
from engine.werewolf.table import RoleTable

__all__ = ["make_ruleset", "WerewolfRules", "HostCommandError"]

OPTIONS = {
    "setup_11": OptionSpec("setup_11", "romantic", setups.ELEVENTH_ROLES,
                           "the 11-player setup adds one of: romantic, succubus, werehamster"),
    "roles": OptionSpec("roles", "", (), "an explicit role list, comma-separated (required under 8 players)"),
    "reveal_roles": OptionSpec("reveal_roles", False, (), "show a dead player's role"),
    "runoff_hours": OptionSpec("runoff_hours", 12, (), "deadline of the runoff nomination round, in hours"),
    "wench_missing": OptionSpec("wench_missing", "random", ("random", "none"),
                                "a Wench who sends no VISIT visits a random living player, or nobody"),
    "bodyguard_self": OptionSpec("bodyguard_self", "forbidden", ("forbidden", "allowed"),
                                 "whether the Bodyguard may protect himself"),
    "wolf_tie": OptionSpec("wolf_tie", "no-kill", ("no-kill", "random"),
                           "a tie among the wolves' KILL orders kills nobody, or a random one of the tied"),
}


class HostCommandError(ValueError):
    """A host command that cannot apply (unknown or dead player, game over)."""


class WerewolfRules:
    """The Werewolf ruleset (engine.core.Ruleset)."""

    name = "werewolf"

    def __init__(self, extra_roles: Sequence[Role] = ()):
        self.table = RoleTable(extra_roles)
        self.options: Mapping[str, OptionSpec] = OPTIONS

    # ------------------------------------------------------------------ creation
    def new_game(self, players: Sequence[PlayerSpec], seed: Any, options: Mapping[str, Any]) -> GameState:
        settings = resolve_options(self.options, options)
        names = [p.name for p in players]
        if len({n.lower() for n in names}) != len(names):
            raise GameSetupError("Two players share a name (ignoring case); give every player a different name.")
        roles = setups.choose_roles(len(names), settings, self.table.names())
        dealt = setups.deal(roles, names, seed)
        characters = tuple(Character(name=n, role=dealt[n], role_state=self.table.by_name[dealt[n]].initial_state)
                           for n in names)
        return GameState(seed=str(seed), options=tuple(sorted(settings.items())), setup=tuple(sorted(roles)),
                         characters=characters)

    def to_json(self, state: GameState) -> dict:
        return codec.state_json(state)

    def from_json(self, data: Mapping) -> GameState:
        return codec.state_from(data, self.table)

    # ------------------------------------------------------------------ phases and orders
    def phase(self, state: GameState) -> Phase | None:
        return phases.current_phase(state, self.table)

    def parse_orders(self, state: GameState, player: str, lines: Sequence[str]) -> tuple:
        if state.result is not None:
            raise OrderBlockError([IllegalOrderError("the game is over; no orders are taken.")])
        if not state.character(player).alive:
            raise OrderBlockError([IllegalOrderError("you are dead, so you cannot send orders.")])
        players = [c.name for c in state.characters]
        return parse_block(lines, self.table.keywords, players,
                           lambda order: phases.check_legal(state, self.table, player, order))

    def legal_orders(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> dict[str, tuple]:
        """The orders that still stand: from living players, allowed in this phase."""
        kept = {}
        for player, given in orders.items():
            if player not in state.living:
                continue
            fine = []
            for order in given:
                try:
                    phases.check_legal(state, self.table, player, order)
                except ValueError:
                    continue
                fine.append(order)
            kept[player] = tuple(fine)
        return kept

    # ------------------------------------------------------------------ resolution
    def resolve(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> Resolution:
        if state.result is not None:
            raise HostCommandError("The game is over; there is no phase to resolve.")
        orders = self.legal_orders(state, orders)
        kind = phases.phase_kind(state.phase_id)
        if kind == "nominate":
            return day.resolve_nominations(state, orders, self.table)
        if kind == "runoff":
            return day.resolve_runoff(state, orders, self.table)
        if kind == "vote":
            return day.resolve_vote(state, orders, self.table)
        if kind == "night0":
            return self.resolve_first_night(state, orders)
        if kind == "night":
            return self.resolve_night(state, orders)
        return self.resolve_witch(state, orders)

    def resolve_first_night(self, state: GameState, orders) -> Resolution:
        """N0: the Romantic picks a lover; both learn each other; day 1 begins."""
        first = night.begin_night(state, self.table, 0, orders)
        for step in self.table.first_night_steps:
            first = step(first)
        return night.dawn(state, first, self.table)

    def resolve_night(self, state: GameState, orders) -> Resolution:
        """Nn: Succubus to the creatures; then the Witch's sub-phase, or straight on to the
        Seer and dawn when no Witch is in the setup."""
        current = night.begin_night(state, self.table, state.day, orders)
        current = night.run_steps(current, self.table, NightStep.SUCCUBUS, NightStep.CREATURES)
        if night.has_witch(state):
            pending = replace(state, pending=current, phase_id=f"N{state.day}-witch")
            private = {}
            for witch in current.characters:
                # The Witch as she knows herself: the role she held at dusk; told even when
                # seduced or struck by the Ninja tonight, so nothing shows before dawn.
                if state.character(witch.name).role == "witch" and state.character(witch.name).alive:
                    private[witch.name] = (Event("witch_told", {"night": state.day, "target": current.wolf_target}),)
            pending = replace(pending, characters=tuple(
                replace(c, inbox=c.inbox + private.get(c.name, ())) for c in pending.characters))
            return Resolution(pending, (), private)
        current = night.run_steps(current, self.table, NightStep.WITCH, NightStep.SEER)
        return night.dawn(state, current, self.table)

    def resolve_witch(self, state: GameState, orders) -> Resolution:
        """Nn-witch: the Witch's potions, then the Seer; then dawn."""
        current = replace(state.pending, orders=state.pending.orders + night.order_pairs(orders))
        current = night.run_steps(current, self.table, NightStep.WITCH, NightStep.SEER)
        return night.dawn(replace(state, pending=None), current, self.table)

    def host_kill(self, state: GameState, player: str, reason: str) -> Resolution:
        """Design/rules Day §5: the host removes a player at once, announced with the reason;
        chains follow at once (lovers; a Wench's bedfellow mid-night), then victory."""
        if state.result is not None:
            raise HostCommandError("The game is over; nobody can be removed.")
        if player not in [c.name for c in state.characters]:
            raise HostCommandError(f"{player} is not a player in this game; check the spelling.")
        if not state.character(player).alive:
            raise HostCommandError(f"{player} is already dead.")
        bedfellows = state.pending.bedfellows if state.pending else ()
        characters, deaths = kill_with_chains(state.characters, player, "host", state.phase_id,
                                              state.lovers, bedfellows)
        public = []
        for name, cause in deaths:
            data = {"player": name}
            if state.option("reveal_roles"):
                data["role"] = state.character(name).role
            if cause == "host":
                public.append(Event("host_kill", {**data, "reason": reason}))
            else:
                public.append(Event("also_died", {**data, "day": state.day}))
        pending = state.pending
        if pending is not None:
            dead = {name for name, _ in deaths}
            pending = replace(pending, characters=tuple(
                replace(c, alive=False, death_cause="host", death_phase=state.phase_id) if c.name in dead and c.alive
                else c for c in pending.characters))
        state = replace(state, characters=characters, pending=pending)
        return night.conclude(state, public, {}, self.table, start_of_day=False)

    # ------------------------------------------------------------------ what people see
    def view(self, state: GameState, player: str | None) -> dict:
        if player is None:
            return views.public_view(state, self.table)
        return views.player_view(state, self.table, player)

    def result(self, state: GameState) -> Result | None:
        return state.result

    def scripted_orders(self, state: GameState, player: str, seed: Any) -> str:
        current = self.phase(state)
        if current is None or player not in current.grammar:
            return ""
        return scripted.scripted_lines(self.view(state, player), current.grammar[player], seed, state.phase_id, player)

    def game_statistics(self, state: GameState) -> dict:
        deaths = Counter(c.death_cause for c in state.characters if not c.alive)
        return {"turns": state.day, "deaths_by_cause": dict(sorted(deaths.items())),
                "actions_used": dict(state.actions)}


def make_ruleset(extra_roles: Sequence[Role] = ()) -> WerewolfRules:
    """The Werewolf ruleset with the built-in roles and the caller's `extra_roles`."""
    return WerewolfRules(extra_roles)
