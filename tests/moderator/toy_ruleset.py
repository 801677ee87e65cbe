"""A tiny ruleset for the moderator's unit tests ("Ballot"): every day each living player
may VOTE for another living player; the one with most votes (ties: alphabetical first)
is out. When two remain, the alphabetically first one wins. Phase ids `D<n>-vote`.
It follows the engine contract (engine.core.Ruleset) so the shell can be tested alone."""
from __future__ import annotations

from dataclasses import dataclass

from engine.core import (Event, Ruleset, GameSetupError, IllegalOrderError, OrderBlockError, OrderLine, OrderSpec,
                         OrderSyntaxError, Phase, PhaseKind, PlayerStatus, Resolution, Result, RulesetCard)


@dataclass(frozen=True)
class Vote:
    target: str

    def __str__(self) -> str:
        return f"VOTE {self.target}"


@dataclass(frozen=True)
class State:
    day: int
    alive: tuple[str, ...]
    dead: tuple[str, ...]


CARD = RulesetCard(
    game_id_prefix="bal",
    phase_kinds=(PhaseKind("vote", "each day's vote"),),
    orders=(OrderLine("Dn-vote", ("vote",), "VOTE <player>", "every living player",
                      "the player with most votes is out"),),
    reserved_words=frozenset({"VOTE"}),
    public_orders=("VOTE",),
)


class Ballot(Ruleset):
    name = "ballot"
    options = {}
    card = CARD

    def new_game(self, players, seed, options):
        if len(players) < 3:
            raise GameSetupError("Ballot needs at least 3 players.")
        return State(1, tuple(p.name for p in players), ())

    def to_json(self, state):
        return {"day": state.day, "alive": list(state.alive), "dead": list(state.dead)}

    def from_json(self, data):
        return State(data["day"], tuple(data["alive"]), tuple(data["dead"]))

    def phase(self, state):
        if len(state.alive) <= 2:
            return None
        grammar = {p: (OrderSpec("VOTE", "VOTE <player>", tuple(q for q in state.alive if q != p)),)
                   for p in state.alive}
        return Phase(f"D{state.day}-vote", "vote", state.alive, grammar)

    def parse_orders(self, state, player, lines):
        errors, orders = [], []
        for number, line in enumerate(lines, start=1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            words = text.split()
            if words[0].upper().rstrip(":") != "VOTE":
                errors.append(OrderSyntaxError(f'unknown order "{words[0]}"; write VOTE <player>').at(number, text))
            elif len(words) != 2 or words[1] not in state.alive or words[1] == player:
                errors.append(IllegalOrderError("vote for another living player").at(number, text))
            else:
                orders.append(Vote(words[1]))
        if errors:
            raise OrderBlockError(errors)
        return tuple(orders)

    def resolve(self, state, orders):
        tally = {}
        for player, given in orders.items():
            for order in given:
                tally[order.target] = tally.get(order.target, 0) + 1
        if tally:
            out = sorted(tally, key=lambda name: (-tally[name], name))[0]
        else:
            out = sorted(state.alive)[-1]
        new = State(state.day + 1, tuple(p for p in state.alive if p != out), state.dead + (out,))
        private = {p: (Event("your_votes", {"count": tally.get(p, 0)}),) for p in state.alive}
        return Resolution(new, (Event("eliminated", {"player": out, "votes": tally.get(out, 0)}),), private)

    def host_kill(self, state, player, reason):
        new = State(state.day, tuple(p for p in state.alive if p != player), state.dead + (player,))
        return Resolution(new, (Event("modkill", {"player": player, "reason": reason}),))

    def view(self, state, player):
        return {"day": state.day, "alive": player in state.alive if player else None,
                "living": list(state.alive)}

    def result(self, state):
        if len(state.alive) > 2:
            return None
        winner = sorted(state.alive)[0]
        return Result((winner,), "last-standing", (winner,))

    def status(self, state, player):
        return PlayerStatus(alive=player in state.alive, label="voter")

    def scripted_orders(self, state, player, seed):
        others = [p for p in state.alive if p != player]
        return f"VOTE {sorted(others)[-1]}" if others else ""

    def game_statistics(self, state):
        return {"turns": state.day, "deaths_by_cause": {"vote": len(state.dead)}, "actions_used": {}}
