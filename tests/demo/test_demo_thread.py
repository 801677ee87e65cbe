"""`pbp demo --votes thread`: the demo plays on a local forum of its own, through pbp's real
Discourse client, and prints each running count as it was posted (docs/design.md:
Embedded default)."""

from __future__ import annotations

import re

import pytest

from pbp.demo import play_demo


@pytest.mark.parametrize("ruleset, players, seed", [("werewolf", 9, "1")])
def test_the_demo_plays_with_votes_in_the_thread(tmp_path, ruleset, players, seed):
    lines: list[str] = []
    outcome = play_demo(
        ruleset, players, seed=seed, data=tmp_path / "demo", say=lines.append, votes="thread"
    )
    assert outcome.result and outcome.result["path"]
    assert any("as posted in the thread" in line for line in lines), "no running count was printed"
    checked = 0
    # each count agrees with the resolution that follows it
    for index, line in enumerate(lines):
        if "as posted in the thread" not in line:
            continue
        posted = dict(re.findall(r"\*\*([^*]+)\*\*\\?: (\d+) \(", line))
        resolution = " ".join(lines[index + 1 : index + 4])
        said = re.search(r"Tally: ([^.]*)\.", resolution)
        if said:
            assert {
                name: str(count)
                for name, count in re.findall(r"([A-Z][\w ]*?) (\d+)", said.group(1))
            } == posted
            checked += 1
    assert checked or ruleset == "infiltration"  # Infiltration's events word the count otherwise
