"""`pbp balance` answers the host's question (docs/balance.md: Reading a verdict, A fairer
setup): the setup it played, a verdict against the 40-60 % band, the skill sweep only when
asked, progress off a terminal only for long runs, and `--suggest` with early drops."""

from __future__ import annotations

import io
import json

import engine
from engine.players import DEFAULT_SKILL
from pbp.balance.estimate import Rate
from pbp.balance.intervals import wilson
from pbp.balance.suggest import DROP_CONFIDENCE, suggest
from pbp.balance.verdict import BAND, BALANCED, DISFAVOURED, FAVOURED, UNCLEAR, Verdict
from pbp.commands.progress import EVERY_SECONDS, QUIET_SECONDS, ProgressBar
from tests.balance.test_commands import pbp


def judged(wins: int, games: int) -> Verdict:
    return Verdict("village", "the Village", "the Wolves", Rate(wins, games))


def test_verdict_names_the_favoured_side_or_says_it_is_too_close_to_call():
    """Only an interval wholly inside the band is balanced, only one wholly outside is
    lopsided, and the sentence gives the figure with its interval and the band."""
    games = 400
    kinds = {}
    for wins in range(games + 1):
        low, high = wilson(wins, games)
        verdict = judged(wins, games)
        expected = (
            BALANCED
            if BAND[0] <= low and high <= BAND[1]
            else DISFAVOURED
            if high < BAND[0]
            else FAVOURED
            if low > BAND[1]
            else UNCLEAR
        )
        assert verdict.kind == expected
        kinds.setdefault(expected, verdict.sentence())
    assert set(kinds) == {BALANCED, DISFAVOURED, FAVOURED, UNCLEAR}
    assert kinds[DISFAVOURED].startswith("the setup favours the Wolves: the Village won ")
    assert kinds[DISFAVOURED].endswith("below 40–60 %.")
    assert (
        kinds[FAVOURED].startswith("the setup favours the Village")
        and "above 40–60 %" in kinds[FAVOURED]
    )
    assert kinds[BALANCED].startswith("balanced: ") and "inside 40–60 %" in kinds[BALANCED]
    assert kinds[UNCLEAR].startswith("too close to call: ") and "edge at" in kinds[UNCLEAR]
    low, high = wilson(100, games)
    assert (
        f"{100 * 100 / games:.0f} % [{100 * low:.0f}, {100 * high:.0f}]"
        in judged(100, games).sentence()
    )


def test_balance_prints_the_setup_it_played_and_a_verdict_without_a_sweep_or_plot(tmp_path):
    """One setup: its Red count or roles and options, each rate, the verdict; no other
    skills are played unless --sweep asks, and no plot is drawn for a single point."""
    done = pbp(
        "balance",
        "infiltration",
        "--players",
        "10",
        "--games",
        "12",
        "--jobs",
        "1",
        "--option",
        "turn_limit=20",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "10 players, skill" in done.stdout and "2 Reds (the default, players / 5)" in done.stdout
    assert (
        "options: turn_limit=20" in done.stdout
        and f"  verdict at skill {DEFAULT_SKILL:g}: " in done.stdout
    )
    assert (
        "other skills" not in done.stdout
        and "plot:" not in done.stdout
        and not list(tmp_path.iterdir())
    )
    assert done.stderr == ""  # a quick run off a terminal writes no progress
    done = pbp(
        "balance",
        "werewolf",
        "--players",
        "9",
        "--games",
        "4",
        "--jobs",
        "1",
        "--sweep",
        "--json",
        cwd=tmp_path,
    )
    report = json.loads(done.stdout)
    assert (
        report["estimates"][0]["setup"]
        == "bodyguard, howler, seer, villager×2, wench, werewolf×2, witch"
    )
    assert report["estimates"][0]["verdict"] in {BALANCED, DISFAVOURED, FAVOURED, UNCLEAR}
    assert (tmp_path / "balance-werewolf.svg").exists()  # the sweep's plot against the skill


def test_progress_off_a_terminal_waits_a_few_seconds_then_writes_a_line_now_and_then():
    now = [0.0]
    stream = io.StringIO()
    bar = ProgressBar(100, "werewolf balance", stream, clock=lambda: now[0])
    bar.update(10)
    now[0] = QUIET_SECONDS - 0.1
    bar.update(20)
    assert stream.getvalue() == ""
    now[0] = QUIET_SECONDS
    bar.update(30)
    now[0] += EVERY_SECONDS / 2
    bar.update(40)
    now[0] += EVERY_SECONDS / 2
    bar.update(50)
    assert stream.getvalue().splitlines() == [
        "werewolf balance: 30/100 games, 5 s",
        f"werewolf balance: 50/100 games, {QUIET_SECONDS + EVERY_SECONDS:.0f} s",
    ]


def test_suggest_tries_each_nearby_setup_drops_the_lopsided_early_and_ranks_the_rest():
    rules = engine.ruleset("infiltration")
    games = 60
    found = suggest(rules, 16, {}, games, DEFAULT_SKILL, "test", 1)
    assert sorted(s.options["reds"] for s in found) == ["1", "2", "4", "5"]
    for s in found:
        low, high = wilson(s.judged.rate.count, s.judged.rate.games, DROP_CONFIDENCE)
        assert s.dropped == (high < BAND[0] or low > BAND[1])
        assert s.found.games == games or s.dropped
    assert any(s.dropped and s.found.games < games for s in found)
    kept = [s for s in found if not s.dropped]
    assert [s.judged.distance for s in kept] == sorted(s.judged.distance for s in kept)
    assert found[: len(kept)] == kept


def test_balance_suggest_prints_the_fairest_nearby_setups_with_the_command_for_each(tmp_path):
    done = pbp(
        "balance",
        "werewolf",
        "--players",
        "10",
        "--games",
        "16",
        "--jobs",
        "2",
        "--suggest",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout.split("Nearby setups, fairest first")[1]
    assert "one Werewolf fewer" in done.stdout or "one Werewolf more" in done.stdout
    assert text.count("pbp balance werewolf --players 10 --option roles=") == 3
