"""Orders accepted before a host kill: only the lines that no longer stand are dropped
(pbp.game.standing_orders; rules/infiltration.md: a host kill voids the character's pending
orders, and only theirs)."""

from __future__ import annotations

import engine
from engine.core import PlayerSpec
from pbp.game.standing_orders import standing_orders

PLAYERS = [PlayerSpec(name) for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid")]


def decision_phase_game():
    rules = engine.ruleset("infiltration")
    state = rules.new_game(PLAYERS, "standing", {})
    while rules.phase(state).kind != "decision":
        phase = rules.phase(state)
        state = rules.resolve(state, {name: () for name in phase.actors}).state
    return rules, state


def block_with_a_vote_for_bruno(rules, state, player):
    """The scripted player's decision orders with their vote turned to Bruno."""
    lines = [
        line
        for line in rules.scripted_orders(state, player, "standing").splitlines()
        if line.strip() and not line.upper().startswith(("VOTE", "#"))
    ]
    return lines + ["VOTE Bruno"]


def test_a_vote_for_a_host_killed_player_is_dropped_and_the_rest_of_the_block_stands():
    rules, state = decision_phase_game()
    voter = next(
        name
        for name in ("Alice", "Chloe", "Dmitri", "Elena", "Farid")
        if len(block_with_a_vote_for_bruno(rules, state, name)) > 1
    )
    block = block_with_a_vote_for_bruno(rules, state, voter)
    accepted = [str(order) for order in rules.parse_orders(state, voter, block)]
    assert "VOTE Bruno" in accepted and len(accepted) == len(block)
    state = rules.host_kill(state, "Bruno", "left the game").state
    phase = rules.phase(state)

    orders = standing_orders(rules, state, phase, {voter: block, "Bruno": ["VOTE NO LYNCH"]})

    # Only the vote for the dead is dropped; every other accepted order still counts.
    assert [str(order) for order in orders[voter]] == [
        text for text in accepted if text != "VOTE Bruno"
    ]
    assert "Bruno" not in orders  # the removed character has no orders


def test_a_block_that_still_parses_is_taken_whole():
    rules, state = decision_phase_game()
    phase = rules.phase(state)
    orders = standing_orders(rules, state, phase, {"Elena": ["VOTE NO LYNCH"]})
    assert [str(order) for order in orders["Elena"]] == ["VOTE NO LYNCH"]
