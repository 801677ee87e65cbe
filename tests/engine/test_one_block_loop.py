"""One loop reads every ruleset's order block (engine.order_blocks; docs/design.md: One
copy of each mechanism): its rules, and that no ruleset module reads a block itself."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.core import IllegalOrderError, OrderBlockError, OrderSyntaxError, parse_order_block

ENGINE = Path(__file__).resolve().parents[2] / "engine"


def read_line(text: str) -> str:
    if not text.isalpha():
        raise OrderSyntaxError("letters only.")
    return text.upper()


def refuse_z(order: str) -> None:
    if order.startswith("Z"):
        raise IllegalOrderError("no Z now.")


def parse(lines: list[str]) -> tuple[str, ...]:
    return parse_order_block(
        lines,
        read_line,
        lambda order: order[0],
        lambda kind: f"{kind} again, see {{earlier}}.",
        refuse_z,
    )


def test_comments_and_blank_lines_are_skipped_and_orders_kept_in_order():
    assert parse(["# a note", "", "  apple ", "banana"]) == ("APPLE", "BANANA")


def test_every_bad_line_is_listed_with_its_number_and_the_earlier_line_of_its_kind():
    with pytest.raises(OrderBlockError) as refused:
        parse(["apple", "avocado", "b4d", "zebra", "zoo"])
    assert [str(error) for error in refused.value.errors] == [
        'Line 2: "avocado" — A again, see 1.',
        'Line 3: "b4d" — letters only.',
        'Line 4: "zebra" — no Z now.',
        'Line 5: "zoo" — no Z now.',  # an illegal line is not the kind's line: no "again"
    ]


def test_no_ruleset_reads_a_block_line_by_line_itself():
    """Placing an error on a block's line (`error.at(number, text)`) is the loop's job."""
    places = []
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name == "order_blocks.py" and path.parent == ENGINE:
            continue
        places += [
            f"{path.relative_to(ENGINE)}:{node.lineno}"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "at"
            and len(node.args) == 2
        ]
    assert places == []
