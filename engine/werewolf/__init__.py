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
    Event, GameSetupError, HostActionError, IllegalOrderError, OptionSpec, OrderBlockError, Phase, PlayerSpec,
    PlayerStatus, Resolution, Result,
    resolve_options,
)
from engine.werewolf import codec, day, night, phases, scripted, setups, views
from engine.werewolf.deaths import kill_with_chains
from engine.werewolf.model import Character, GameState, NightStep, Role, kill, revealed_role
from engine.werewolf.orders import Kill, parse_block
from engine.werewolf.card import make_card
from engine.werewolf.table import RoleTable
from engine.werewolf.tally import most_named
from engine.werewolf.teams import introduce

__all__ = ["make_ruleset", "WerewolfRules"]

OPTIONS = {
    "setup_11": OptionSpec("setup_11", "romantic", setups.ELEVENTH_ROLES,
                           "the 11-player setup adds one of: romantic, succubus, werehamster"),
    "roles": OptionSpec("roles", "", (), "an explicit role list, comma-separated (required under 8 players)"),
    "reveal_roles": OptionSpec("reveal_roles", False, (), "show a dead player's role"),
    "wench_missing": OptionSpec("wench_missing", "random", ("random", "none"),
                                "a Wench who sends no VISIT visits a random living player, or nobody"),
    "bodyguard_self": OptionSpec("bodyguard_self", "forbidden", ("forbidden", "allowed"),
                                 "whether the Bodyguard may protect himself"),
    "bodyguard_repeat": OptionSpec("bodyguard_repeat", "allowed", ("allowed", "forbidden"),
                                   "whether the Bodyguard may protect the same player on consecutive nights"),
    "modkill_loses": OptionSpec("modkill_loses", True, (),
                                "a player the host removes for breaking the rules never wins"),
    "wolf_tie": OptionSpec("wolf_tie", "no-kill", ("no-kill", "random"),
                           "a tie among the wolves' KILL orders kills nobody, or a random one of the tied"),
}



class WerewolfRules:
    """The Werewolf ruleset (engine.core.Ruleset)."""

    name = "werewolf"

    def __init__(self, extra_roles: Sequence[Role] = ()):
        self.table = RoleTable(extra_roles)
        self.card = make_card(self.table)
        self.options: Mapping[str, OptionSpec] = OPTIONS

    # ------------------------------------------------------------------ creation
    def new_game(self, players: Sequence[PlayerSpec], seed: Any, options: Mapping[str, Any]) -> GameState:
        settings = resolve_options(self.options, options)
        names = [p.name for p in players]
        if len({n.lower() for n in names}) != len(names):
            raise GameSetupError("Two players share a name (ignoring case); give every player a different name.")
        roles = setups.choose_roles(len(names), settings, self.table.names())
        dealt = setups.deal(roles, names, seed)
        characters = introduce(tuple(
            Character(name=n, role=dealt[n], role_state=self.table.by_name[dealt[n]].initial_state)
            for n in names), self.table)
        return GameState(seed=str(seed), options=tuple(sorted(settings.items())), setup=tuple(sorted(roles)),
                         characters=characters)

    def setup_warnings(self, state: GameState) -> tuple[str, ...]:
        """Sentences for the host about a setup the rules accept but advise against."""
        return setups.warnings(state.setup)

    def to_json(self, state: GameState) -> dict[str, Any]:
        return codec.state_json(state)

    def from_json(self, data: Mapping[str, Any]) -> GameState:
        return codec.state_from(data, self.table)

    # ------------------------------------------------------------------ phases and orders
    def phase(self, state: GameState) -> Phase | None:
        return phases.current_phase(state, self.table)

    def parse_orders(self, state: GameState, player: str, lines: Sequence[str]) -> tuple[Any, ...]:
        if state.result is not None:
            raise OrderBlockError([IllegalOrderError("the game is over; no orders are taken.")])
        if not state.character(player).alive:
            raise OrderBlockError([IllegalOrderError("you are dead, so you cannot send orders.")])
        players = [c.name for c in state.characters]
        return parse_block(lines, self.table.keywords, players,
                           lambda order: phases.check_legal(state, self.table, player, order))

    def parse_standing_orders(self, state: GameState, player: str, lines: Sequence[str]) -> tuple[Any, ...]:
        """A block accepted earlier in this phase, read again at the deadline: like
        `parse_orders`, except that an order aimed at a player the host removed since then
        still stands (rules: it keeps its meaning and does nothing; no default replaces it)."""
        if state.result is not None or not state.character(player).alive:
            return self.parse_orders(state, player, lines)
        players = [c.name for c in state.characters]
        return parse_block(lines, self.table.keywords, players,
                           lambda order: phases.check_legal(state, self.table, player, order, standing=True))

    def legal_orders(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> dict[str, tuple[Any, ...]]:
        """The orders that still stand: from living players, allowed in this phase (an
        order aimed at a player the host removed in this phase stands, and does nothing)."""
        kept = {}
        for player, given in orders.items():
            if player not in state.living:
                continue
            fine = []
            for order in given:
                try:
                    phases.check_legal(state, self.table, player, order, standing=True)
                except ValueError:
                    continue
                fine.append(order)
            kept[player] = tuple(fine)
        return kept

    # ------------------------------------------------------------------ resolution
    def resolve(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> Resolution:
        if state.result is not None:
            raise HostActionError("The game is over; there is no phase to resolve.")
        orders = self.legal_orders(state, orders)
        resolution = self.resolve_phase(state, orders)
        # A new phase opens: host removals of the last one no longer stand behind orders.
        return replace(resolution, state=replace(resolution.state, removed=()))

    def resolve_phase(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> Resolution:
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

    def resolve_first_night(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> Resolution:
        """N0: the Romantic picks a lover; both learn each other; day 1 begins."""
        first = night.begin_night(state, self.table, 0, orders)
        for step in self.table.first_night_steps:
            first = step(first)
        return night.dawn(state, first, self.table)

    def resolve_night(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> Resolution:
        """Nn: Succubus to the creatures; then the Witch's sub-phase, or straight on to the
        Seer and dawn when no Witch is in the setup."""
        current = night.begin_night(state, self.table, state.day, orders)
        current = night.run_steps(current, self.table, NightStep.SUCCUBUS, NightStep.CREATURES)
        if night.has_witch(state):
            pending = replace(state, pending=current, phase_id=f"N{state.day}-witch")
            private: dict[str, tuple[Event, ...]] = {}
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

    def resolve_witch(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> Resolution:
        """Nn-witch: the Witch's potions, then the Seer; then dawn."""
        assert state.pending is not None  # the witch sub-phase always carries the pending night
        current = replace(state.pending, orders=state.pending.orders + night.order_pairs(orders))
        current = night.run_steps(current, self.table, NightStep.WITCH, NightStep.SEER)
        return night.dawn(replace(state, pending=None), current, self.table)

    def host_kill(self, state: GameState, player: str, reason: str, breach: bool = True) -> Resolution:
        """Rules Day §5 and "A host kill during a night": the host removes a player at once,
        announced with the reason, then victory is checked. `breach`: removed for breaking
        the rules (a modkill, who never wins under `modkill_loses`).

        By day the chains (lovers) follow at once. During a night (`N0`, `Nn`, `Nn-witch`)
        the removal is published and nothing more: the death is dated `Nn`, its chains wait
        for dawn, and dawn does not announce the player again (a Ninja's victim included)."""
        if state.result is not None:
            raise HostActionError("The game is over; nobody can be removed.")
        if player not in [c.name for c in state.characters]:
            raise HostActionError(f"{player} is not a player in this game; check the spelling.")
        if not state.character(player).alive:
            raise HostActionError(f"{player} is already dead.")
        kind = phases.phase_kind(state.phase_id)
        at_night = kind in ("night0", "night", "witch")
        dated = state.phase_id.removesuffix("-witch")
        if at_night:
            characters, deaths = kill(state.characters, player, "host", dated), [(player, "host")]
        else:
            characters, deaths = kill_with_chains(state.characters, player, "host", dated, state.lovers)
        public = []
        for name, cause in deaths:
            data = {"player": name}
            if state.option("reveal_roles"):
                data["role"] = revealed_role(state.character(name))
            if cause == "host":
                public.append(Event("host_kill", {**data, "reason": reason}))
            else:
                public.append(Event("also_died", {**data, "day": state.day}))
        pending = state.pending
        if pending is not None:
            pending = replace(
                pending, dead_now=tuple((n, why) for n, why in pending.dead_now if n != player),
                characters=tuple(replace(c, alive=False, death_cause="host", death_phase=dated)
                                 if c.name == player else c for c in pending.characters))
        state = replace(state, characters=characters, pending=pending, removed=state.removed + (player,),
                        night_removed=state.night_removed + ((player,) if at_night else ()),
                        modkilled=state.modkilled + ((player,) if breach else ()))
        if kind == "vote" and not phases.on_trial(state):
            # Both defendants removed: the day ends with no lynch.
            public.append(Event("no_lynch", {"day": state.day, "defendants": []}))
            return day.nightfall(replace(state, last_lynch=(), removed=()), public, self.table)
        return night.conclude(state, public, {}, self.table, start_of_day=False)

    def host_notes(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> tuple[str, ...]:
        """What the host should know about the orders in so far (never shown to players):
        a split pack, whose KILLs as they stand kill nobody (or leave it to the draw)."""
        if phases.phase_kind(state.phase_id) != "night":
            return ()
        kills = {player: order.target for player, given in sorted(self.legal_orders(state, orders).items())
                 for order in given if isinstance(order, Kill)}
        if len(most_named(kills.values())) < 2:
            return ()
        listed = "; ".join(f"{wolf} → {target}" for wolf, target in kills.items())
        outcome = "a draw picks one of them" if state.option("wolf_tie") == "random" else "nobody is killed"
        return (f"The pack is split ({listed}): as things stand {outcome}.",)

    # ------------------------------------------------------------------ what people see
    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        if player is None:
            return views.public_view(state, self.table)
        return views.player_view(state, self.table, player)

    def result(self, state: GameState) -> Result | None:
        return state.result

    def status(self, state: GameState, player: str) -> PlayerStatus:
        return views.player_status(state, self.table, player)

    def scripted_orders(self, state: GameState, player: str, seed: Any) -> str:
        current = self.phase(state)
        if current is None or player not in current.grammar:
            return ""
        return scripted.scripted_lines(self.view(state, player), current.grammar[player], seed, state.phase_id, player)

    def game_statistics(self, state: GameState) -> dict[str, Any]:
        deaths = Counter(c.death_cause for c in state.characters if not c.alive)
        return {"turns": state.day, "deaths_by_cause": dict(sorted(deaths.items())),
                "actions_used": dict(state.actions)}


def make_ruleset(extra_roles: Sequence[Role] = ()) -> WerewolfRules:
    """The Werewolf ruleset with the built-in roles and the caller's `extra_roles`."""
    return WerewolfRules(extra_roles)
