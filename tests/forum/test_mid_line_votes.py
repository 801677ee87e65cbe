"""A vote written mid-line is not counted (an order is a line of its own), and nobody is
left guessing (docs/design.md: Public posts — votes in the thread): the host's notes list
it, and with `thread_receipts=on` the player is told why."""

from __future__ import annotations

import pytest

from pbp.forum.thread.mid_line import mentioned
from tests.forum.thread_play import ThreadPlay

WORDS = ("NOMINATE", "VOTE")


@pytest.mark.parametrize(
    "post, said",
    [
        ("Hi all, Elena here. NOMINATE Chloe", "NOMINATE Chloe"),
        ("I agree with Alice. **Nominate Bruno**", "NOMINATE Bruno"),
        ("lol what. nominate: alice", "NOMINATE alice"),
        ("I will vote Bruno tomorrow", ""),  # talk, not an order
        ("> I agree. NOMINATE Bruno", ""),  # someone else's words
        ("the vote: is open", ""),
    ],
)
def test_an_order_written_mid_line_is_found(post, said):
    assert mentioned(post, WORDS) == said


@pytest.mark.integration
@pytest.mark.parametrize("thread_forum", ["discourse"], indirect=True)
def test_a_mid_line_vote_is_told_to_the_player_and_listed_for_the_host(tmp_path, thread_forum):
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf", options={"thread_receipts": "on"})
    try:
        phase = play.to_day_one()
        play.post("Alice", "I agree with Elena. **Nominate Bruno**")
        play.read()
        assert "Alice" not in play.stored_orders(phase)
        (told,) = play.mails("thread-refusal", "Alice")
        assert (
            "your post mentions NOMINATE Bruno, but not on a line of its own, so it was not counted"
            in " ".join(told["body"].split())
        )
        (host,) = play.mails("thread-notes")
        assert (
            '"NOMINATE Bruno" was not counted: the order is mid-line, not on a line of its own.'
            in " ".join(host["body"].split())
        )
    finally:
        play.close()
