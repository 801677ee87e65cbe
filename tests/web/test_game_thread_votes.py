"""A game whose votes are cast in its forum thread: the desk's count and orders link each
vote to the post that cast it (docs/design.md: The host's desk in the browser — a game's
page; Votes in the thread)."""

from __future__ import annotations

import re

import pytest

from tests.forum.reddit_server import FakeReddit
from tests.forum.thread_forums import RedditForum
from tests.forum.thread_play import GAME, ThreadPlay


@pytest.fixture
def play(tmp_path):
    server = FakeReddit().start()
    play = ThreadPlay.start(RedditForum(server), tmp_path, "werewolf")
    yield play
    play.close()
    server.stop()


def test_the_count_links_each_thread_vote_to_its_post(play):
    from pbp.web.app import make_app
    from pbp.web.credentials import new_login_link

    play.to_day_one()
    play.post("Alice", "I have a feeling.\n\n**nominate Bruno**")
    play.read()
    (row,) = play.game.file.orders.where("phase", play.game.phase.id)
    app = make_app(play.moderator.settings)
    app.config["TESTING"] = True
    desk = app.test_client()
    assert desk.get(f"/login/{new_login_link(play.moderator.settings.data)}").status_code == 302
    page = desk.get(f"/games/{GAME}").data.decode()
    link = f'<a href="{row["post_url"]}" rel="noreferrer noopener">thread post</a>'
    assert re.search(r"<bdi>Alice</bdi> \(" + re.escape(link) + r"\)", page), page  # in the count
    assert page.count(link) == 2  # and in the orders table
