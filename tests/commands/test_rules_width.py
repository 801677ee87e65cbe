"""`pbp rules <ruleset>` wraps its order table to the terminal, at most 100 columns, with
each explanation under its order (not into a narrow column at the left margin)."""

from __future__ import annotations

from pbp.cli import main


def orders_part(capsys) -> list[str]:
    said = capsys.readouterr().out
    return said.split("Orders, phase by phase:\n")[1].split("\n\n")[0].splitlines()


def test_the_order_table_uses_a_wide_terminal_up_to_100_columns(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["rules", "werewolf"]) == 0
    lines = orders_part(capsys)
    assert max(len(line) for line in lines) <= 100
    (nominate,) = [index for index, line in enumerate(lines) if line.endswith("NOMINATE <player>")]
    column = lines[nominate].index("NOMINATE")
    explained = lines[nominate + 1]
    assert explained[:column].strip() == "" and explained[column:].startswith("every living player")
    assert "the two most nominated stand trial" in explained


def test_a_narrow_terminal_gets_narrow_lines(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["rules", "werewolf"]) == 0
    assert max(len(line) for line in orders_part(capsys)) <= 60
