"""Publishing to Discourse through pbp's real client (pbp.forum.discourse) against the
local Discourse: a topic per game, each post once, even when the forum's answer is lost
(found again by its marker), Markdown as Discourse renders it (docs/design.md: Public
posts — publishing)."""

from __future__ import annotations

import pytest

from pbp.forum.discourse import DiscourseForum, DiscourseSettings
from pbp.forum.publishing.publish import publish_game
from pbp.forum.publishing.publisher import PermanentPublishError
from pbp.demo.discourse_server import LocalDiscourse
from tests.forum.thread_play import ThreadPlay
from tests.forum.thread_forums import DiscourseForum as DiscourseUnderTest

pytestmark = pytest.mark.integration


@pytest.fixture
def discourse():
    server = LocalDiscourse().start()
    yield server
    server.stop()


def test_a_lost_answer_publishes_the_post_exactly_once(tmp_path, discourse):
    play = ThreadPlay.start(DiscourseUnderTest(discourse), tmp_path, "werewolf")
    forum = DiscourseForum(
        DiscourseSettings(url=discourse.url, api_username="pbp_bot", api_key="test-key")
    )

    def publish() -> int:  # as `pbp publish` does: now, whatever the retry's wait
        return len(publish_game(play.game, forum, ignore_wait=True))

    try:
        play.past_deadline()
        play.resolve_due()
        # the topic is made, then the post; each time the forum's answer is lost
        discourse.fail_next("drop", path="/posts.json", count=1)
        assert publish() == 0 and len(discourse.topics) == 1
        discourse.fail_next("drop", path="/posts.json", count=1)
        assert publish() == 0
        made = len(discourse.posts_by("pbp_bot"))
        assert made == 2  # the topic's opening post and the phase's post
        assert publish() == 1  # found again by its marker, not posted twice
        assert len(discourse.posts_by("pbp_bot")) == made and len(discourse.topics) == 1
        assert publish() == 0
    finally:
        play.close()


def test_a_wrong_key_is_a_clear_permanent_error(discourse):
    forum = DiscourseForum(
        DiscourseSettings(url=discourse.url, api_username="pbp_bot", api_key="wrong")
    )
    with pytest.raises(PermanentPublishError, match="api_key"):
        forum.thread_posts("1")


def test_a_long_topic_is_read_whole_in_chunks(discourse):
    first = discourse.new_topic("Game g1", "opening", "pbp_bot")
    for number in range(250):
        discourse.reply(first.topic_id, f"post {number}", f"user{number % 7}")
    forum = DiscourseForum(
        DiscourseSettings(url=discourse.url, api_username="pbp_bot", api_key="test-key")
    )
    posts = forum.thread_posts(str(first.topic_id))
    assert [post.text for post in posts if not post.by_us] == [f"post {n}" for n in range(250)]
    gets = [path for method, path in discourse.requests if path.startswith("/t/")]
    assert len(gets) == 1 + 3  # the topic, then the other 230 posts a hundred at a time
