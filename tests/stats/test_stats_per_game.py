"""`pbp stats` counts games (docs/balance.md: Statistics across games): team and setup
rates per game, not per seat; a header row per table; "1 game"; rulesets spelled out;
each setup named once; names aligned by display width; plot labels spelled out."""

from __future__ import annotations

import json

from wcwidth import wcswidth

from pbp.stats.plot import draw
from pbp.stats.text import table
from tests.balance.test_commands import folder, pbp, stats  # noqa: F401  (the fixture: one finished demo game)


def test_team_and_setup_rates_count_games_not_seats(folder):  # noqa: F811
    tables = json.loads(stats("--data", str(folder), "--json"))
    assert tables["finished"] == 1
    assert {row["team"]: row["games"] for row in tables["teams"]} == {"village": 1, "wolves": 1}
    assert sorted(row["wins"] for row in tables["teams"]) == [0, 1]
    assert all(row["games"] == 1 for row in tables["setups"])
    seats = sum(row["games"] for row in tables["roles"])  # roles stay counted in seats
    assert seats == len(tables["players"])


def test_stats_text_has_header_rows_counts_in_words_rulesets_spelled_out_and_each_setup_once(
    folder,
):  # noqa: F811
    text = stats("--data", str(folder))
    lines = text.splitlines()
    assert lines[0].startswith("1 finished game (1 still running")
    assert "1 games" not in text and " 1 game " in text
    for header in ("player", "role", "team"):
        assert any(
            line.split()[:1] in (["game"], [header]) and "95 % interval" in line for line in lines
        )
    assert sum(1 for line in lines if line.strip().startswith("Werewolf, 9 players:")) == 1
    assert "Werewolf  " in text and " werewolf  village" not in text


def test_names_are_aligned_by_display_width_wide_characters_counting_two():
    rows = [("Ann", "1 game"), ("山田太郎", "2 games"), ("Zoë", "3 games")]
    lines = table(("player", "games"), rows, (False, True))
    assert (
        len({wcswidth(line) for line in lines}) == 1
    )  # every row as wide: the right column lines up
    assert (
        len(lines[2]) == len(lines[1]) - 4
    )  # four wide characters: four columns more than their count


def test_stats_plot_labels_spell_the_role_and_the_ruleset(folder, tmp_path):  # noqa: F811
    tables = json.loads(stats("--data", str(folder), "--json"))
    draw(tables, tmp_path / "stats.svg")
    svg = (tmp_path / "stats.svg").read_text()
    assert "Witch (Werewolf)" in svg and "Village (Werewolf)" in svg and "(wer)" not in svg
