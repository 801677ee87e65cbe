"""A running count that links the post of a vote whose post was deleted says so: the vote
stands (docs/rules/werewolf.md: Votes in the thread — Deletions) and its link leads to a
deleted post (docs/design.md: Votes in the thread)."""

from __future__ import annotations

import pytest

from pbp.forum.publishing import drafting
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.post_renderer import post_renderer
from tests.forum.thread_play import ThreadPlay

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("thread_forum", ["discourse"], indirect=True)
def test_the_count_says_a_linked_post_was_deleted(tmp_path, thread_forum):
    play = ThreadPlay.start(thread_forum, tmp_path, "werewolf")
    try:
        play.to_day_one()
        gone = play.post("Alice", "NOMINATE Bruno")
        play.post("Chloe", "NOMINATE Bruno")
        play.read()
        play.forum.delete(gone, play.clock.tick(2))
        play.read()
        game = play.game
        with game.file.transaction():
            draft = drafting.draft_tally(
                post_renderer(play.moderator.renderer),
                load_forum_settings(play.moderator.settings),
                game,
                play.clock(),
            )
        body = str(draft.text)
        alice = next(line for line in body.splitlines() if "Alice → Bruno" in line)
        chloe = next(line for line in body.splitlines() if "Chloe → Bruno" in line)
        assert "since deleted; the vote stands" in alice and "deleted" not in chloe
    finally:
        play.close()
