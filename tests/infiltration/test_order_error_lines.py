"""Line numbers in order errors (engine.core.OrderError), both rulesets: an error about a
repeated order names both lines, and moving it to a mail's numbering moves both."""

from __future__ import annotations

import pytest

import engine
from engine.core import OrderBlockError, PlayerSpec


def errors_of(ruleset: str, players: list[str], player: str, lines: list[str]) -> list[str]:
    rules = engine.ruleset(ruleset)
    state = rules.new_game([PlayerSpec(name) for name in players], "7", {})
    with pytest.raises(OrderBlockError) as failure:
        rules.parse_orders(state, player, lines)
    return [str(error.moved(2)) for error in failure.value.errors]


def test_a_repeated_class_names_the_first_class_line_in_the_mails_numbering():
    errors = errors_of(
        "infiltration",
        ["Alice", "Bruno", "Chloe", "Dmitri", "Elena"],
        "Bruno",
        ["CLASS HACKER", "# again", "CLASS SNEAKER"],
    )
    assert errors == [
        'Line 5: "CLASS SNEAKER" — line 3 already gave a class order; send one CLASS per block.'
    ]


def test_a_placeless_error_stays_placeless_when_moved():
    from engine.core import IllegalOrderError

    assert str(IllegalOrderError("no orders now").moved(2)) == "no orders now"


def test_werewolf_names_the_first_line_of_a_repeated_order_in_the_mails_numbering():
    rules = engine.ruleset("werewolf")
    state = rules.new_game(
        [
            PlayerSpec(name)
            for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Gina", "Hugo")
        ],
        "7",
        {},
    )
    while rules.phase(state).id != "D1-nominate":
        state = rules.resolve(state, {}).state
    with pytest.raises(OrderBlockError) as failure:
        rules.parse_orders(state, "Alice", ["NOMINATE Bruno", "# x", "NOMINATE Chloe"])
    assert [str(error.moved(2)) for error in failure.value.errors] == [
        'Line 5: "NOMINATE Chloe" — only one NOMINATE line is allowed and line 3 already has one; '
        "keep the one you mean."
    ]
