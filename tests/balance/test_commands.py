"""`pbp balance` and `pbp stats` as a host runs them (docs/balance.md)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import pty
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.players import DEFAULT_SKILL
from engine.werewolf.teams import introduce
from pbp.cli import main
from pbp.composition import ComposedModerator
from pbp.demo import play_demo
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings

REPO = Path(__file__).resolve().parents[2]


def pbp(*arguments: str, cwd: Path = REPO) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, "-m", "pbp", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=600,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


# ---------------------------------------------------------------------- pbp balance
def test_balance_prints_rates_with_intervals_and_draws_the_same_plot_with_any_jobs(tmp_path):
    """`pbp balance werewolf --players 8 --skill 0,1 --games G` prints each team's win rate
    with its Wilson interval, the mean length and the deaths per game for each skill, and
    plots the rates against the skill; `--jobs` changes neither the text nor the plot."""
    outputs = []
    for jobs in ("1", "2"):
        plot = tmp_path / f"plot{jobs}.svg"
        done = pbp(
            "balance",
            "werewolf",
            "--players",
            "8",
            "--skill",
            "0,1",
            "--games",
            "8",
            "--jobs",
            jobs,
            "--plot",
            str(plot),
        )
        assert done.returncode == 0, done.stderr
        outputs.append((done.stdout.replace(str(plot), "PLOT"), plot.read_bytes()))
    assert outputs[0] == outputs[1]
    text = outputs[0][0]
    assert "8 players, skill 0" in text and "8 players, skill 1" in text
    assert "village" in text and "wolves" in text and "%  [" in text
    assert "mean length" in text and "deaths per game: " in text and "lynch" in text
    assert outputs[0][1].startswith(b"<?xml") and b"<svg" in outputs[0][1]


def test_balance_of_one_setup_sweeps_the_skill_for_its_plot_when_asked_and_speaks_json(tmp_path):
    done = pbp(
        "balance",
        "infiltration",
        "--players",
        "8",
        "--games",
        "3",
        "--jobs",
        "1",
        "--json",
        "--sweep",
        "--plot",
        str(tmp_path / "p.png"),
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [e["skill"] for e in report["estimates"]] == [DEFAULT_SKILL]
    assert set(report["estimates"][0]) >= {"wins", "mean_length", "deaths_per_game", "games"}
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")


def test_balance_lists_every_problem_in_one_line():
    done = pbp("balance", "werewolf", "--players", "8-9", "--skill", "0,2", "--jobs", "0")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    for problem in ("--skill 2 is outside 0 to 1", "--jobs must be at least 1", "not both"):
        assert problem in done.stderr


# ---------------------------------------------------------------------- pbp stats
def stats(*arguments: str) -> str:
    """`pbp stats …` run in this process (the command line's own entry), its output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["stats", *arguments]) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """A data folder with one finished demo game and one game still running."""
    data = tmp_path_factory.mktemp("stats")
    play_demo("werewolf", data=data, say=lambda line: None, seed="stats")
    settings_ = Settings(data=data, transport="maildir", from_address="pbp@demo.invalid")
    with ComposedModerator(settings_) as moderator:
        roster = [
            RosterPlayer(name, f"{name.lower()}@players.invalid")
            for name in ("Ann", "Ben", "Cid", "Dot", "Eve", "Fay", "Gus", "Hal")
        ]
        create_game(moderator, "werewolf", roster, seed="running", schedule_text="default=1h")
    return data


def test_stats_counts_finished_games_per_player_role_team_and_setup(folder, tmp_path):
    done = pbp("stats", "--data", str(folder), "--json")
    assert done.returncode == 0, done.stderr
    tables = json.loads(done.stdout)
    assert tables["finished"] == 1 and tables["running"] == 1
    assert len(tables["players"]) == 9 and all(row["games"] == 1 for row in tables["players"])
    assert {row["team"] for row in tables["teams"]} == {"village", "wolves"}
    assert all(
        row["low"] <= row["win_rate"] <= row["high"]
        for table in ("roles", "teams", "setups")
        for row in tables[table]
    )
    done = pbp(
        "stats",
        "--data",
        str(folder),
        "--csv",
        str(tmp_path / "csv"),
        "--plot",
        str(tmp_path / "s.svg"),
    )
    assert done.returncode == 0 and "1 finished game (1 still running" in done.stdout
    assert (
        (tmp_path / "csv" / "roles.csv")
        .read_text()
        .startswith("ruleset,role,games,wins,win_rate,low,high")
    )
    assert (tmp_path / "s.svg").exists()


def swap_roles(data: Path, first: int, second: int) -> None:
    """The running game's twin: two of its characters trade their secret roles."""
    settings_ = Settings(data=data, transport="maildir", from_address="pbp@demo.invalid")
    with ComposedModerator(settings_) as moderator:
        file = next(game for game in moderator.folder.games() if not game.record().get("result"))
        record = file.record()
        rules = moderator.rules("werewolf")
        state = rules.from_json(record["state"])
        roles = [c.role for c in state.characters]
        roles[first], roles[second] = roles[second], roles[first]
        characters = introduce(
            tuple(
                replace(c, role=role, known_teams=()) for c, role in zip(state.characters, roles)
            ),
            rules.table,
        )
        with file.transaction():
            file.update_record({"state": rules.to_json(replace(state, characters=characters))})


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pair=st.lists(st.integers(0, 7), min_size=2, max_size=2, unique=True))
def test_stats_never_read_the_secrets_of_a_running_game(folder, pair):
    """Twin data folders whose running game differs in who holds which role print the same
    statistics, byte for byte: a running game's state is never read."""
    before = stats("--data", str(folder), "--json")
    swap_roles(folder, *pair)
    assert stats("--data", str(folder), "--json") == before


def test_balance_draws_a_progress_bar_on_a_terminal(tmp_path):
    """Long work shows progress on a terminal (docs/design.md: Command line)."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "pbp",
            "balance",
            "werewolf",
            "--players",
            "8",
            "--skill",
            "0,1",
            "--games",
            "3",
            "--jobs",
            "1",
            "--plot",
            str(tmp_path / "p.svg"),
        ],
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
    assert b"[#" in seen and b"6/6" in seen and b"[#" not in stdout
