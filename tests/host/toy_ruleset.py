"""A tiny ruleset behind the engine contract, for unit tests of the pure host functions
while keeping them independent of the real rulesets' details: every phase `P<n>`, each
living player may `ADD <1-9>`; the phase draws a seeded bonus; after three phases it ends."""
from __future__ import annotations

from engine.core import (IllegalOrderError, OrderBlockError, OrderSpec, OrderSyntaxError, Phase,
                         Resolution, Result, Ruleset, phase_rng)


class ToyRules(Ruleset):
    name = "toy"
    options = {}

    def new_game(self, players, seed, options):
        return {"seed": str(seed), "turn": 1, "alive": sorted(p.name for p in players),
                "totals": {p.name: 0 for p in players}}

    def to_json(self, state):
        return {"seed": state["seed"], "turn": state["turn"], "alive": list(state["alive"]),
                "totals": dict(state["totals"])}

    def from_json(self, data):
        return self.to_json(data)

    def phase(self, state):
        if state["turn"] > 3:
            return None
        grammar = (OrderSpec("ADD", "ADD <1-9>"),)
        return Phase(f"P{state['turn']}", "round", tuple(state["alive"]),
                     {name: grammar for name in state["alive"]})

    def parse_orders(self, state, player, lines):
        errors, orders = [], []
        for number, line in enumerate(lines, start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            words = line.split()
            if words[0].upper() != "ADD" or len(words) != 2 or not words[1].isdigit():
                errors.append(OrderSyntaxError("write ADD and a digit").at(number, line))
            elif not 1 <= int(words[1]) <= 9:
                errors.append(IllegalOrderError("add 1 to 9").at(number, line))
            else:
                orders.append(f"ADD {int(words[1])}")
        if errors:
            raise OrderBlockError(errors)
        return tuple(orders)

    def resolve(self, state, orders):
        phase = self.phase(state)
        bonus = phase_rng(state["seed"], phase.id).randint(0, 5)
        totals = dict(state["totals"])
        for player, given in orders.items():
            for order in given:
                totals[player] += int(order.split()[1]) + bonus
        new = {**self.to_json(state), "turn": state["turn"] + 1, "totals": totals}
        return Resolution(new)

    def host_kill(self, state, player, reason):
        new = {**self.to_json(state), "alive": [p for p in state["alive"] if p != player]}
        return Resolution(new)

    def view(self, state, player):
        return {"turn": state["turn"]}

    def result(self, state):
        return Result(("all",), "end") if state["turn"] > 3 else None

    def scripted_orders(self, state, player, seed):
        return "ADD 1"

    def game_statistics(self, state):
        return {"turns": state["turn"], "deaths_by_cause": {}, "actions_used": {}}
