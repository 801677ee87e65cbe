"""Two skills (docs/balance.md: Two skills): `--skill village=0.4,wolves=0.6` sets the
village's reasoning and the wolves' play apart, one number still means both, and skilled
wolves hide: they never vote for a packmate's life."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from engine.players import DEFAULT_SKILL, Skill
from engine.simulation import play_record, play_table
from pbp.balance.calibration import law_cell
from pbp.balance.skills import SkillError, parse_skill, parse_skills, skill_axis, skill_json

REPO = Path(__file__).resolve().parents[2]


def test_one_number_means_both_sides_and_two_are_read_by_name():
    assert parse_skill("0.4") == Skill(0.4, 0.4)
    assert parse_skill("village=0.4,wolves=0.6") == Skill(0.4, 0.6)
    assert parse_skill(" wolves = 1 , village = 0 ") == Skill(0.0, 1.0)
    assert (
        parse_skill("wolves=0.6").village == DEFAULT_SKILL
    )  # a side left out plays at the default
    assert skill_json(Skill(0.3, 0.3)) == 0.3 and skill_json(Skill(0.1, 0.2)) == {
        "village": 0.1,
        "wolves": 0.2,
    }
    assert Skill(0.3, 0.3).label() == "0.3" and Skill(0.1, 0.2).label() == "village=0.1,wolves=0.2"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("village=x", "is not a skill"),
        ("1.5", "outside 0 to 1"),
        ("cats=0.3", "'cats' is not a side"),
        ("village=0.2,village=0.3", "twice"),
        ("wolves=-1", "outside 0 to 1"),
        ("", "is not a skill"),
    ],
)
def test_a_bad_skill_is_one_sentence_saying_how_to_write_it(text, words):
    with pytest.raises(SkillError) as raised:
        parse_skill(text)
    message = str(raised.value)
    assert words in message and message.count("\n") == 0 and message.endswith(".")


def test_the_same_skill_for_both_sides_plays_the_very_games_one_number_plays():
    rules = engine.ruleset("werewolf")
    for seed in range(3):
        assert play_record(rules, 11, seed, {}, 0.4) == play_record(
            rules, 11, seed, {}, Skill(0.4, 0.4)
        )
    infiltration = engine.ruleset("infiltration")
    assert play_record(infiltration, 8, 1, {}, 0.3) == play_record(
        infiltration, 8, 1, {}, Skill(0.3, 0.3)
    )


def test_the_law_at_skill_zero_for_both_sides_stays_exact():
    cell = law_cell(9, 2, False, games=200, seed="two-skills")
    assert cell.inside


def test_each_side_plays_at_its_own_skill():
    """Unskilled wolves against a skilled village: the games differ from one skill for
    both, so the wolves' number reaches the wolves and the village's the village."""
    rules = engine.ruleset("werewolf")
    options = {"roles": "werewolf,werewolf,seer,bodyguard," + ",".join(["villager"] * 7)}
    same = [
        play_record(rules, 11, seed, options, Skill(1.0, 1.0))
        == play_record(rules, 11, seed, options, Skill(1.0, 0.0))
        for seed in range(6)
    ]
    assert not all(same)


def test_skilled_wolves_never_vote_for_a_packmates_life():
    """Whenever most of the village votes to hang a wolf, no other wolf votes otherwise."""
    rules = engine.ruleset("werewolf")
    options = {
        "roles": "werewolf,werewolf,werewolf,seer,bodyguard," + ",".join(["villager"] * 10),
        "reveal_roles": "on",
    }
    trials = 0
    for seed in range(8):
        table = play_table(rules, 15, f"hide/{seed}", options, Skill(1.0, 1.0))
        wolves = {name for name, scripted in table.players.items() if scripted.mind.is_wolf}
        for event in table.public:
            if event.kind != "votes":
                continue
            votes = event.data["votes"]
            for defendant in event.data["defendants"]:
                village = [choice for voter, choice in votes.items() if voter not in wolves]
                if defendant not in wolves or village.count(defendant) * 2 <= len(village):
                    continue
                trials += 1  # the village hangs a wolf: the pack must not be seen saving him
                saving = [
                    voter
                    for voter, choice in votes.items()
                    if voter in wolves and voter != defendant and choice != defendant
                ]
                assert not saving, (seed, event.data)
    assert trials > 0


def test_simulate_takes_two_skills_and_says_them():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pbp",
            "simulate",
            "werewolf",
            "--players",
            "8",
            "--games",
            "2",
            "--jobs",
            "1",
            "--skill",
            "village=0.4,wolves=0.6",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "skill village 0.4, wolves 0.6" in done.stdout
        and "The skill is checked against" in done.stdout
    )
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "pbp",
            "simulate",
            "werewolf",
            "--players",
            "8",
            "--skill",
            "village=2",
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=300,
    )
    assert bad.returncode != 0 and "outside 0 to 1" in bad.stderr and "Traceback" not in bad.stderr


def test_parse_skills_reads_a_list_of_numbers_or_of_two_sided_skills():
    assert parse_skills("0,0.5,1") == ([Skill(0, 0), Skill(0.5, 0.5), Skill(1, 1)], [])
    assert parse_skills("village=0.4,wolves=0.6") == ([Skill(0.4, 0.6)], [])
    assert parse_skills("village=0,wolves=1;village=1,wolves=1")[0] == [Skill(0, 1), Skill(1, 1)]
    assert [len(found) for found in parse_skills("0,2,x")] == [1, 2]
    assert skill_axis([Skill(0, 1), Skill(1, 1)]) == (
        "the village's skill (the wolves' at 1)",
        [0, 1],
    )
    with pytest.raises(SkillError, match="no one axis"):
        skill_axis([Skill(0, 1), Skill(1, 0)])


def test_balance_takes_two_skills_and_its_verdict_names_the_skill_played(tmp_path):
    def balance(*arguments: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [
                sys.executable,
                "-m",
                "pbp",
                "balance",
                "werewolf",
                "--players",
                "8",
                "--games",
                "4",
                "--jobs",
                "1",
                *arguments,
            ],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=300,
        )

    done = balance("--skill", "village=0.4,wolves=0.6")
    assert done.returncode == 0, done.stderr
    assert "8 players, skill village=0.4,wolves=0.6:" in done.stdout
    assert "  verdict at village skill 0.4, wolves skill 0.6: " in done.stdout
    assert f"  verdict at skill {DEFAULT_SKILL:g}: " in balance().stdout
    report = json.loads(balance("--skill", "wolves=0", "--json").stdout)
    assert report["estimates"][0]["skill"] == {"village": DEFAULT_SKILL, "wolves": 0.0}
    plot = tmp_path / "p.svg"
    assert (
        balance("--skill", "village=0,wolves=1;village=1,wolves=1", "--plot", str(plot)).returncode
        == 0
    )
    assert b"the village's skill (the wolves' at 1)" in plot.read_bytes()
    for bad, words in (
        (("--skill", "village=0,wolves=1;village=1,wolves=0"), "no one axis"),
        (("--skill", "wolves=0", "--sweep"), "--sweep plays one skill"),
    ):
        done = balance(*bad)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr
