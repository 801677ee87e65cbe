"""Werewolf (rules: rules/werewolf.md): the ruleset object behind the engine contract.

The package face only: it delegates to modules with one job each (setups, codec, phases,
orders, legality, day, night, host, views, players). `make_ruleset(extra_roles=(...))` builds it
from the built-in role table plus roles the caller imported itself (docs/design.md:
Extensibility); this package never imports a role by name from outside.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine.core import (
    Event,
    GameSetupError,
    HostActionError,
    IllegalOrderError,
    OptionSpec,
    OrderBlockError,
    Phase,
    PlayerSpec,
    PlayerStatus,
    Resolution,
    Result,
    Ruleset,
    resolve_options,
)
from engine.players import SkillLike
from engine.simulation import one_off_orders
from engine.werewolf import codec, day, host, legality, night, phases, setups, views
from engine.werewolf.card import make_card
from engine.werewolf.characters import Character
from engine.werewolf.game_state import GameState
from engine.werewolf.model import Role
from engine.werewolf.orders import parse_block
from engine.werewolf.players import WerewolfPlayer
from engine.werewolf.table import RoleTable
from engine.werewolf.teams import introduce

__all__ = ["make_ruleset", "WerewolfRules"]

OPTIONS = {
    "setup_11": OptionSpec(
        "setup_11",
        "romantic",
        setups.ELEVENTH_ROLES,
        "the role the 11-player setup adds to the 10-player one",
    ),
    "roles": OptionSpec(
        "roles", "", (), "an explicit role list, comma-separated (required under 8 players)"
    ),
    "reveal_roles": OptionSpec("reveal_roles", False, (), "show a dead player's role"),
    "wench_missing": OptionSpec(
        "wench_missing",
        "random",
        ("random", "none"),
        "a Wench who sends no VISIT visits a random living player, or nobody",
    ),
    "bodyguard_self": OptionSpec(
        "bodyguard_self",
        "forbidden",
        ("forbidden", "allowed"),
        "whether the Bodyguard may protect himself",
    ),
    "bodyguard_repeat": OptionSpec(
        "bodyguard_repeat",
        "allowed",
        ("allowed", "forbidden"),
        "whether the Bodyguard may protect the same player on consecutive nights",
    ),
    "modkill_loses": OptionSpec(
        "modkill_loses", True, (), "a player the host removes for breaking the rules never wins"
    ),
    "first_night": OptionSpec(
        "first_night",
        "quiet",
        ("quiet", "full"),
        "night 0 is quiet (only the Romantic acts) or a whole night (the wolves kill, "
        "every role acts), as in night-first games",
    ),
    "wolf_tie": OptionSpec(
        "wolf_tie",
        "no-kill",
        ("no-kill", "random"),
        "a tie among the wolves' KILL orders kills nobody, or a random one of the tied",
    ),
}


class WerewolfRules(Ruleset):
    """The Werewolf ruleset (engine.core.Ruleset)."""

    name = "werewolf"

    def __init__(self, extra_roles: Sequence[Role] = ()):
        self.table = RoleTable(extra_roles)
        self.card = make_card(self.table)
        self.options: Mapping[str, OptionSpec] = OPTIONS

    # ------------------------------------------------------------------ creation
    def new_game(
        self, players: Sequence[PlayerSpec], seed: Any, options: Mapping[str, Any]
    ) -> GameState:
        settings = resolve_options(self.options, options)
        names = [p.name for p in players]
        if len({n.lower() for n in names}) != len(names):
            raise GameSetupError(
                "Two players share a name (ignoring case); give every player a different name."
            )
        roles = setups.choose_roles(len(names), settings, self.table.names())
        dealt = setups.deal(roles, names, seed)
        characters = introduce(
            tuple(
                Character(
                    name=n, role=dealt[n], role_state=self.table.by_name[dealt[n]].initial_state
                )
                for n in names
            ),
            self.table,
        )
        return GameState(
            seed=str(seed),
            options=tuple(sorted(settings.items())),
            setup=tuple(sorted(roles)),
            characters=characters,
        )

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
        return parse_block(
            lines,
            self.table.keywords,
            players,
            lambda order: legality.check_legal(state, self.table, player, order),
        )

    def parse_standing_orders(
        self, state: GameState, player: str, lines: Sequence[str]
    ) -> tuple[Any, ...]:
        """A block accepted earlier in this phase, read again at the deadline: like
        `parse_orders`, except that an order aimed at a player the host removed since then
        still stands (rules: it keeps its meaning and does nothing; no default replaces it)."""
        if state.result is not None or not state.character(player).alive:
            return self.parse_orders(state, player, lines)
        players = [c.name for c in state.characters]
        return parse_block(
            lines,
            self.table.keywords,
            players,
            lambda order: legality.check_legal(state, self.table, player, order, standing=True),
        )

    def legal_orders(
        self, state: GameState, orders: Mapping[str, Sequence[Any]]
    ) -> dict[str, tuple[Any, ...]]:
        """The orders that still stand: from living players, allowed in this phase (an
        order aimed at a player the host removed in this phase stands, and does nothing)."""
        kept = {}
        for player, given in orders.items():
            if player not in state.living:
                continue
            fine = []
            for order in given:
                try:
                    legality.check_legal(state, self.table, player, order, standing=True)
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
        if not resolution.state.removed:
            return resolution
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
            return night.resolve_first_night(state, orders, self.table)
        if kind == "night":
            return night.resolve_night(state, orders, self.table)
        return night.resolve_witch(state, orders, self.table)

    def host_kill(
        self, state: GameState, player: str, reason: str, breach: bool = True
    ) -> Resolution:
        return host.host_kill(state, player, reason, self.table, breach)

    def host_notes(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> tuple[str, ...]:
        return host.host_notes(state, self.legal_orders(state, orders))

    # ------------------------------------------------------------------ what people see
    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        if player is None:
            return views.public_view(state, self.table)
        return views.player_view(state, self.table, player)

    def views(self, state: GameState, players: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Every player's view, sharing one public part (engine.core.Ruleset.views)."""
        public = views.public_view(state, self.table)
        return {player: views.player_view(state, self.table, player, public) for player in players}

    def result(self, state: GameState) -> Result | None:
        return state.result

    def status(self, state: GameState, player: str) -> PlayerStatus:
        return views.player_status(state, self.table, player)

    def scripted_orders(self, state: GameState, player: str, seed: Any) -> str:
        """A scripted player new to the game reads its whole record in its view: the
        public log and its own inbox."""
        if state.result is not None or player not in state.living:
            return ""
        view = self.view(state, player)
        return one_off_orders(
            self,
            state,
            player,
            seed,
            news=tuple(Event(e["kind"], e["data"]) for e in view["log"]),
            mail=tuple(Event(e["kind"], e["data"]) for e in view["me"]["inbox"]),
        )

    def scripted_player(self, player: str, skill: SkillLike) -> WerewolfPlayer:
        return WerewolfPlayer(player, skill)

    def game_statistics(self, state: GameState) -> dict[str, Any]:
        deaths = Counter(c.death_cause for c in state.characters if not c.alive)
        return {
            "turns": state.day,
            "deaths_by_cause": dict(sorted(deaths.items())),
            "actions_used": dict(state.actions),
        }


def make_ruleset(extra_roles: Sequence[Role] = ()) -> WerewolfRules:
    """The Werewolf ruleset with the built-in roles and the caller's `extra_roles`."""
    return WerewolfRules(extra_roles)
