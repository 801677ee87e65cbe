"""A small simulation through engine.simulation ends without error (the 1,000-game run is
the command `pbp simulate infiltration --players 16 --games 1000 --seed 1`), and the
command itself, for both rulesets, at a small size (what CI runs)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from engine.simulation import play_games, summarize

from tests.infiltration.scenario import RULES


def test_twenty_games_of_eight_players_end_with_a_result():
    records = play_games(RULES, 8, 20, "ci")
    summary = summarize(records)
    assert summary["games"] == 20 and "unfinished" not in summary["wins_by_path"]
    assert all(record.result is not None for record in records)
    assert summary["actions_used"]["vote"] > 0


def test_options_games_end_too():
    records = play_games(
        RULES,
        12,
        4,
        "ci-options",
        {"alert_scope": "floor", "tie": "random", "phantom_votes": "on", "turn_limit": "12"},
    )
    assert all(record.result is not None and record.statistics["turns"] <= 12 for record in records)


# ---------------------------------------------------------------------- the command
REPO = Path(__file__).resolve().parents[2]
COMMAND_CASES = {
    "infiltration": ["--players", "8", "--games", "3", "--seed", "cmd"],
    "werewolf": ["--players", "8", "--games", "5", "--seed", "cmd"],
}


def simulate(ruleset: str, *extra: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pbp", "simulate", ruleset, *COMMAND_CASES[ruleset], *extra],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    return done.stdout


@pytest.mark.parametrize("ruleset", sorted(COMMAND_CASES))
def test_simulate_prints_the_same_statistics_for_the_same_arguments(ruleset):
    """`pbp simulate <ruleset> --players N --games K --seed S [--json]` prints wins by team
    and by path, mean turns, deaths by cause and actions used; the same arguments print the
    same output, as text and as JSON; piped, no progress bar is drawn."""
    text = simulate(ruleset)
    assert text == simulate(ruleset)
    for heading in (
        "mean turns",
        "Wins by team:",
        "Wins by path:",
        "Deaths by cause:",
        "Actions used:",
    ):
        assert heading in text
    as_json = simulate(ruleset, "--json")
    assert as_json == simulate(ruleset, "--json")
    summary = json.loads(as_json)
    assert summary["games"] == int(COMMAND_CASES[ruleset][3])
    assert set(summary) >= {
        "wins_by_team",
        "wins_by_path",
        "mean_turns",
        "deaths_by_cause",
        "actions_used",
    }
    assert sum(summary["wins_by_team"].values()) <= summary["games"]


@pytest.mark.parametrize("ruleset", sorted(COMMAND_CASES))
def test_simulate_prints_the_same_bytes_with_any_number_of_jobs(ruleset):
    """`pbp simulate --jobs N` plays the games in N processes (default: every core); each
    game has its own seed, so the output is byte-identical to `--jobs 1`."""
    one = simulate(ruleset, "--json", "--jobs", "1")
    assert simulate(ruleset, "--json", "--jobs", "2") == one
    assert simulate(ruleset, "--json", "--jobs", "3") == one


def test_simulate_refuses_zero_jobs_in_one_line():
    done = subprocess.run(
        [sys.executable, "-m", "pbp", "simulate", "werewolf", "--players", "8", "--jobs", "0"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "--jobs must be at least 1" in done.stderr


def test_simulate_draws_a_progress_bar_on_a_terminal():
    """Long work shows progress on a terminal (docs/design.md: Command line)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "pbp", "simulate", "werewolf", *COMMAND_CASES["werewolf"]],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=follower,
        cwd=REPO,
    )
    os.close(follower)
    stdout, _ = process.communicate(timeout=300)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert process.returncode == 0
    assert b"[#" in seen and b"5/5" in seen
    assert b"[#" not in stdout
