"""The project's proposed setups (rules/werewolf.md and rules/infiltration.md: Balance):
each documented figure is the one its documented command prints, the cards propose the
documented setups, and the source's setups (8 to 20 Werewolf players) stay as they are."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import engine
from engine.infiltration.variants import default_reds
from engine.werewolf.setups import SETUPS
from tests.balance.test_commands import REPO, pbp

ROW = re.compile(r"^\| (\d+) \| ([^|]+) \| (\d+) % \[(\d+), (\d+)\] \|(?: `([^`]+)` \|)?$", re.M)
TEMPLATE = re.compile(r"^ +(pbp balance werewolf --players \$n .*)$", re.M)


def balance_section(ruleset: str) -> str:
    return (
        (REPO / "docs" / "rules" / f"{ruleset}.md")
        .read_text(encoding="utf-8")
        .split("## Balance", 1)[1]
    )


def rows(ruleset: str) -> list[re.Match[str]]:
    return list(ROW.finditer(balance_section(ruleset)))


def command(ruleset: str, row: re.Match[str]) -> str:
    """A row's command: its own (Infiltration), or the section's loop body for its size."""
    if row[6]:
        return row[6]
    template = TEMPLATE.search(balance_section(ruleset))
    assert template, "the Werewolf Balance section gives the command of its loop"
    return expand(template[1], int(row[1]))


def test_werewolf_proposes_a_setup_for_every_size_above_20_and_keeps_the_source_below():
    variants = engine.ruleset("werewolf").card.setup_variants
    documented = {int(row[1]): row for row in rows("werewolf")}
    assert sorted(documented) == list(range(21, 41))
    for size in range(8, 21):
        assert variants.proposed(size, {}) is None
    assert all(variants.proposed(size, {}) for size in range(21, 41))
    for size, row in documented.items():
        proposal = variants.proposed(size, {})
        assert proposal is not None and f"--option roles={proposal[1]['roles']}" in command(
            "werewolf", row
        )
        assert_band_said(row)
    assert max(SETUPS) == 20


def assert_band_said(row: re.Match[str]) -> None:
    """A row's figure lies in the band, or its setup cell says on which side it falls
    short (a proposal the tool could not bring into the band is documented as such)."""
    rate = int(row[3])
    said = "" if 40 <= rate <= 60 else "(below the band)" if rate < 40 else "(above the band)"
    assert said in row[2] if said else "the band)" not in row[2], row[0]


def test_infiltration_proposes_red_counts_only_where_the_default_is_lopsided():
    variants = engine.ruleset("infiltration").card.setup_variants
    for row in rows("infiltration"):
        size, reds = int(row[1]), int(row[2].split()[0])
        proposal = variants.proposed(size, {})
        assert_band_said(row)
        assert f"reds={reds}" in row[6] and "--skill 1 " in row[6]
        assert (proposal[1]["reds"] if proposal else str(default_reds(size))) == str(reds)


def expand(command: str, size: int) -> str:
    """The documented command with its `$n` and its villagers written out."""
    villagers = ",".join(["villager"] * (size - 9))
    return command.replace("$(yes villager | head -n $((n-9)) | paste -sd,)", villagers).replace(
        "$n", str(size)
    )


def test_a_documented_figure_is_what_its_command_prints(tmp_path: Path):
    for ruleset, row in (
        ("werewolf", rows("werewolf")[3]),
        ("infiltration", rows("infiltration")[0]),
    ):
        words = shlex.split(command(ruleset, row))
        assert words[:2] == ["pbp", "balance"]
        done = pbp(*words[1:], "--jobs", "2", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert f"won {row[3]} % [{row[4]}, {row[5]}] of the games" in done.stdout
