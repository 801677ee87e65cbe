"""Infiltration (rules: rules/infiltration.md): the ruleset behind the engine contract.

`make_ruleset()` returns the object `engine.ruleset("infiltration")` hands out; this class is
only the package's face and delegates to small modules with one job each: setup and
facility (the map), orders (parsing), guards, movement, arrival, alert, lynch, fights
(combat per room, over `combat`), terminals (over `validity` and `world`), gas, victory,
turn (the phase order), host (the host kill), card (the order table and the shell's facts),
events (the event vocabulary), grammar (order forms), views (the only gate to the state),
codec (the state as JSON), players (scripted players) and statistics.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.core import (
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
from engine.infiltration import codec, host, turn
from engine.infiltration.card import CARD
from engine.infiltration.orders.grammar import actor_grammar
from engine.infiltration.orders.order_parsing import parse_block
from engine.infiltration.players import InfiltrationPlayer
from engine.infiltration.setup import new_game
from engine.infiltration.state import GameState, Step
from engine.infiltration.statistics import game_statistics
from engine.infiltration.views import host_view, player_status, player_view, public_view

OPTIONS = {
    "reds": OptionSpec("reds", 0, (), "number of Reds; 0 means max(1, round(players / 5))"),
    "default_class": OptionSpec(
        "default_class",
        "warrior",
        ("warrior", "hacker", "sneaker"),
        "class of a Green who does not choose one in turn 0",
    ),
    "map": OptionSpec(
        "map",
        "default",
        (),
        "'default' (random map) or the host's map: text of "
        "'ROOM FEATURE' lines or 8 lines of 8 comma-separated features",
    ),
    "alert_scope": OptionSpec(
        "alert_scope",
        "facility",
        ("facility", "floor"),
        "Alert silences terminals everywhere, or only on the floors where it holds",
    ),
    "tie": OptionSpec(
        "tie", "no-lynch", ("no-lynch", "random"), "a tied lynch vote: nobody, or a random draw"
    ),
    "phantom_votes": OptionSpec(
        "phantom_votes", False, (), "a living player who does not vote votes for themself"
    ),
    "turn_limit": OptionSpec(
        "turn_limit", 30, (), "the game is a draw if turn N's resolution ends without a result"
    ),
}


class Infiltration(Ruleset):
    """The Infiltration ruleset (engine.core.Ruleset)."""

    name = "infiltration"
    card = CARD

    def __init__(self) -> None:
        self.options = dict(OPTIONS)

    def new_game(
        self, players: Sequence[PlayerSpec], seed: Any, options: Mapping[str, Any]
    ) -> GameState:
        return new_game(players, seed, resolve_options(self.options, options))

    def to_json(self, state: GameState) -> dict[str, Any]:
        return codec.to_json(state)

    def from_json(self, data: Mapping[str, Any]) -> GameState:
        return codec.from_json(data)

    def actors(self, state: GameState) -> tuple[str, ...]:
        key = ("actors", "")  # asked for the phase and again for every block parsed
        if key not in state.derived:
            if state.step == Step.OVER:
                state.derived[key] = ()
            elif state.step == Step.CLASS:
                state.derived[key] = tuple(c.name for c in state.living_players())
            else:
                state.derived[key] = tuple(c.name for c in state.living())
        actors: tuple[str, ...] = state.derived[key]
        return actors

    def phase(self, state: GameState) -> Phase | None:
        if state.step == Step.OVER:
            return None
        actors = self.actors(state)
        return Phase(
            state.phase_id,
            state.step,
            actors,
            {name: actor_grammar(state, name) for name in actors},
        )

    def parse_orders(self, state: GameState, player: str, lines: Sequence[str]) -> tuple[Any, ...]:
        if player not in self.actors(state):
            refusal = (
                IllegalOrderError("the game is over; nothing was accepted.")
                if state.step == Step.OVER
                else IllegalOrderError.of(
                    "%(name)s has no orders to give in %(phase)s; nothing was accepted.",
                    name=player,
                    phase=state.phase_id,
                )
            )
            raise OrderBlockError([refusal])
        return parse_block(state, player, lines)

    def resolve(self, state: GameState, orders: Mapping[str, Sequence[Any]]) -> Resolution:
        actors = set(self.actors(state))
        given = {name: tuple(orders[name]) for name in sorted(orders) if name in actors}
        if state.step == Step.CLASS:
            return turn.resolve_class(state, given)
        if state.step == Step.MOVEMENT:
            return turn.resolve_movement(state, given)
        if state.step == Step.DECISION:
            return turn.resolve_decision(state, given)
        raise HostActionError("The game is over; there is no phase to resolve.")

    def host_kill(self, state: GameState, player: str, reason: str) -> Resolution:
        return host.host_kill(state, player, reason)

    def view(self, state: GameState, player: str | None) -> dict[str, Any]:
        return public_view(state) if player is None else player_view(state, player)

    def views(self, state: GameState, players: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Every player's view, sharing one public part (engine.core.Ruleset.views)."""
        public = public_view(state)
        return {name: player_view(state, name, public) for name in players}

    def host_view(self, state: GameState) -> dict[str, Any]:
        """What the host sees: the public view with the whole facility as its map."""
        return host_view(state)

    def result(self, state: GameState) -> Result | None:
        return state.result

    def status(self, state: GameState, player: str) -> PlayerStatus:
        return player_status(state, player)

    def scripted_orders(self, state: GameState, player: str, seed: Any) -> str:
        """A scripted player new to the game: its view holds its map and its room, not the
        mail it was sent, so it plays from those alone."""
        return one_off_orders(self, state, player, seed)

    def scripted_player(self, player: str, skill: SkillLike) -> InfiltrationPlayer:
        return InfiltrationPlayer(player, skill)

    def game_statistics(self, state: GameState) -> dict[str, Any]:
        return game_statistics(state)


def make_ruleset(**config: Any) -> Infiltration:
    """The Infiltration ruleset; it takes no configuration."""
    if config:
        raise TypeError(f"Infiltration takes no configuration, not {', '.join(sorted(config))}.")
    return Infiltration()
