"""One replies-per-day cap (pbp.game.notifying.reply_cap; docs/design.md: One copy of
each mechanism): no other module of pbp counts or reads the `replies` table, which the
storage declares."""

from __future__ import annotations

import ast
from pathlib import Path

SHELL = Path(__file__).resolve().parents[2] / "pbp"


def test_only_the_reply_cap_touches_the_replies_table():
    places = [
        f"{path.relative_to(SHELL)}:{node.lineno}"
        for path in sorted(SHELL.rglob("*.py"))
        if path.relative_to(SHELL).as_posix() != "game/notifying/reply_cap.py"
        and not path.relative_to(SHELL).as_posix().startswith("storage/")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "replies"
    ]
    assert places == []
