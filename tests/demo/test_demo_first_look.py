"""`pbp demo` as a first look (docs/design.md: Embedded default): each ruleset's default
demo plays the card's `demo_seed`, a game that shows the ruleset at its best (Werewolf
for at least two days and two nights, Infiltration in a few turns where votes execute
someone), and `--votes thread` shows what votes in the thread are for: a changed vote,
a take-back word, a quoted vote not counted and a post after the deadline."""

from __future__ import annotations

import re

from pbp.demo import play_demo


def played(tmp_path, ruleset: str, votes: str = "mail") -> str:
    lines: list[str] = []
    outcome = play_demo(ruleset, data=tmp_path / "demo", say=lines.append, votes=votes)
    assert outcome.result
    return "\n".join(lines)


def test_the_werewolf_demo_lasts_two_days_and_two_nights(tmp_path):
    text = played(tmp_path, "werewolf")
    headers = re.findall(r"^== (.*) ==$", text, re.M)
    assert {"Day 1 — vote", "Day 2 — vote", "Night 1", "Night 2"} <= set(headers), headers


def test_the_infiltration_demo_is_short_and_its_votes_execute(tmp_path):
    text = played(tmp_path, "infiltration")
    votes = re.findall(r"\b(\w+) voted ([\w ]+?)[;.]", text)
    assert len(re.findall(r"^== ", text, re.M)) <= 15
    assert "execute" in text
    assert sum(choice == "NO LYNCH" for _, choice in votes) * 3 < len(votes)
    assert not any(voter == choice for voter, choice in votes)
    assert re.search(r"^The \w+ wins?!", text, re.M)


def test_the_thread_demo_shows_what_votes_in_the_thread_are_for(tmp_path):
    text = played(tmp_path, "werewolf", votes="thread")
    tour = text.split("-- what else was posted in the thread in ")[1].split("\n== ")[0]
    assert re.search(r"posts VOTE \w+, then VOTE \w+ in a later post", tour)
    assert "takes it back with UNVOTE" in tour
    assert "a quote is not a vote" in tour
    assert "a minute after the deadline" in tour
    listed = tour.split("as `pbp status` lists it for the host --")[1]
    assert "was not counted: posted after the deadline" in listed
    count = text.split("## Day 1 — vote count")[1].split("**Tally**")[0]
    changer, old = re.search(r"(\w+) posts (VOTE \w+), then", tour).groups()
    quoter = re.search(r"(\w+) quotes", tour).group(1)
    late = re.search(r"(\w+) posts (VOTE \w+) a minute after", tour).groups()
    assert f"* {changer} → {old.split()[1]} " not in count  # the later post counts
    assert f"* {late[0]} → {late[1].split()[1]} " not in count  # the late vote does not
    assert (
        f"* {quoter} → " in count and f"* {quoter} → {old.split()[1]} " not in count
    )  # a quote is not a vote
