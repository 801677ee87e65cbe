"""Views are the only gate (docs/design.md: One gate): replaying the same orders with one hidden fact changed
(another player's team, class or terminal use) leaves every view and every report unchanged,
except for those a rule tells (the player themself; Reds learn who their teammates are)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import PlayerSpec
from engine.infiltration.orders.values import Attack, Tamper, Use
from engine.seat_names import player_names

from tests.infiltration.scenario import RULES

# The Psychic is left out too: once a player has died, the count of living Reds reveals
# whether they were Red, which the rule means it to.
SAFE_TERMINALS = {
    "LOCATOR",
    "HISTORY",
    "MAPDATA",
    "SUPERLOCATOR",
    "MESSAGE",
    "GAS",
    "GUARD",
    "COMMANDER",
    "LOCK",
    "SWITCH",
}


def safe_lines(state, player, seed):
    """The scripted player's lines minus those whose effect depends on the hidden facts
    (attacks depend on classes; Seer and Validity questions could ask about them; only Reds
    can hack)."""
    text = RULES.scripted_orders(state, player, seed)
    kept = []
    for line in text.splitlines():
        order = RULES.parse_orders(state, player, [line])[0]
        if isinstance(order, (Attack, Tamper)):
            continue
        if isinstance(order, Use) and order.terminal not in SAFE_TERMINALS:
            continue
        kept.append(line)
    return kept


def record_orders(seed, players=10, turns=6, warriors=()):
    """Orders of a scripted game (safe lines only), phase by phase; `warriors` choose WARRIOR
    in turn 0 (the hidden fact is varied from there in the replays)."""
    state = RULES.new_game([PlayerSpec(n) for n in player_names(players)], seed, {})
    log = []
    while RULES.phase(state) and len(log) < 1 + 2 * turns:
        phase = RULES.phase(state)
        orders = {actor: safe_lines(state, actor, seed) for actor in phase.actors}
        if state.step == "class":
            orders.update({name: ["CLASS WARRIOR"] for name in warriors})
        log.append(orders)
        typed = {a: RULES.parse_orders(state, a, lines) for a, lines in orders.items()}
        state = RULES.resolve(state, typed).state
    return state, log


def replay(seed, log, start_change=None, order_change=None, players=10):
    state = RULES.new_game([PlayerSpec(n) for n in player_names(players)], seed, {})
    if start_change:
        state = start_change(state)
    seen = []
    for index, orders in enumerate(log):
        if RULES.phase(state) is None:
            break
        if order_change:
            orders = order_change(index, dict(orders))
        typed = {
            a: RULES.parse_orders(state, a, lines)
            for a, lines in orders.items()
            if a in RULES.phase(state).actors
        }
        resolution = RULES.resolve(state, typed)
        state = resolution.state
        views = {name: RULES.view(state, name) for name in state.characters}
        seen.append(
            {
                "public": [e.to_json() for e in resolution.public],
                "public_view": RULES.view(state, None),
                "private": {n: [e.to_json() for e in evs] for n, evs in resolution.private.items()},
                "views": views,
            }
        )
    return seen


def assert_same_for(observers, first, second):
    """Views and reports agree phase by phase until the game ends: the end itself reveals
    teams (who won, the head count that decided it, the final role list)."""
    for step_a, step_b in zip(first, second):
        if "over" in (step_a["public_view"]["step"], step_b["public_view"]["step"]):
            break
        assert step_a["public"] == step_b["public"]
        assert step_a["public_view"] == step_b["public_view"]
        for observer in observers:
            assert step_a["views"][observer] == step_b["views"][observer], observer
            assert step_a["private"].get(observer) == step_b["private"].get(observer), observer


@pytest.mark.parametrize("seed", ["s1", "s2", "s3"])
def test_another_players_class_stays_hidden(seed):
    greens = [
        c.name
        for c in RULES.new_game(
            [PlayerSpec(n) for n in player_names(10)], seed, {}
        ).characters.values()
        if c.team == "green"
    ]
    target = greens[0]
    _, log = record_orders(seed, warriors=[target])

    def choose(role):
        def change(index, orders):
            if index == 0:
                orders[target] = [f"CLASS {role}"]
            return orders

        return change

    as_warrior = replay(seed, log, order_change=choose("WARRIOR"))
    as_hacker = replay(seed, log, order_change=choose("HACKER"))
    assert (
        as_warrior[-1]["views"][target] != as_hacker[-1]["views"][target]
    )  # they know their class
    assert_same_for([n for n in player_names(10) if n != target], as_warrior, as_hacker)


@pytest.mark.parametrize("seed", ["s1", "s4"])
def test_another_players_team_stays_hidden(seed):
    first = RULES.new_game([PlayerSpec(n) for n in player_names(10)], seed, {})
    red = next(c.name for c in first.characters.values() if c.team == "red")
    green = next(c.name for c in first.characters.values() if c.team == "green")
    _, log = record_orders(seed, warriors=[red, green])

    def swap(state):
        return state.with_characters(
            [
                replace(state.characters[red], team="green"),
                replace(state.characters[green], team="red"),
            ]
        )

    original, swapped = replay(seed, log), replay(seed, log, start_change=swap)
    observers = [c.name for c in first.characters.values() if c.team == "green" and c.name != green]
    assert_same_for(observers, original, swapped)
    assert (
        original[0]["views"][red]["me"]["team"] == "red"
        and swapped[0]["views"][red]["me"]["team"] == "green"
    )


@pytest.mark.parametrize("seed", ["s1", "s5"])
def test_another_players_terminal_use_stays_hidden(seed):
    _, log = record_orders(seed, turns=8)
    used = [
        (index, name)
        for index, orders in enumerate(log)
        for name, lines in orders.items()
        if any(
            line.startswith(
                ("USE LOCATOR", "USE HISTORY", "USE SUPERLOCATOR", "USE GUARD", "USE MAPDATA")
            )
            for line in lines
        )
    ]
    assert used, "the scripted game should use an information terminal"
    index, user = used[0]

    def silence(i, orders):
        if i == index:
            orders[user] = [line for line in orders[user] if not line.startswith("USE")]
        return orders

    with_use, without_use = replay(seed, log), replay(seed, log, order_change=silence)
    assert_same_for([n for n in player_names(10) if n != user], with_use, without_use)
