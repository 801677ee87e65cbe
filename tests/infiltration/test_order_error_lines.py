"""Line numbers in order errors (engine.core.OrderError): an error about a repeated order
names both lines, and moving it to a mail's numbering moves both."""
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
    errors = errors_of("infiltration", ["Alice", "Bruno", "Chloe", "Dmitri", "Elena"], "Bruno",
                       ["CLASS HACKER", "# again", "CLASS SNEAKER"])
    assert errors == ['Line 5: "CLASS SNEAKER" — line 3 already gave a class order; send one CLASS per block.']


def test_a_placeless_error_stays_placeless_when_moved():
    from engine.core import IllegalOrderError
    assert str(IllegalOrderError("no orders now").moved(2)) == "no orders now"
