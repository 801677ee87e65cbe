"""A small simulation through engine.simulation ends without error (the 1,000-game run is
the command `pbp simulate infiltration --players 16 --games 1000 --seed 1`)."""
from __future__ import annotations

from engine.simulation import play_games, summarize

from infiltration.scenario import RULES


def test_twenty_games_of_eight_players_end_with_a_result():
    records = play_games(RULES, 8, 20, "ci")
    summary = summarize(records)
    assert summary["games"] == 20 and "unfinished" not in summary["wins_by_path"]
    assert all(record.result is not None for record in records)
    assert summary["actions_used"]["vote"] > 0


def test_options_games_end_too():
    records = play_games(RULES, 12, 4, "ci-options",
                         {"alert_scope": "floor", "tie": "random", "phantom_votes": "on", "turn_limit": "12"})
    assert all(record.result is not None and record.statistics["turns"] <= 12 for record in records)
