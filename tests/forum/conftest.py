"""Fixtures for the public-thread tests: the local fake Reddit, and praw pointed at it."""
from __future__ import annotations

import pytest

from pbp.forum.reddit import RedditPublisher, RedditSettings
from .reddit_server import FakeReddit


@pytest.fixture
def fake_reddit():
    server = FakeReddit().start()
    yield server
    server.stop()


def reddit_settings(server: FakeReddit, mode: str = "thread", timeout: float = 1.0) -> RedditSettings:
    return RedditSettings(subreddit=server.subreddit, mode=mode, client_id="test-client",
                          client_secret="test-secret", username=server.username, password="pw",
                          user_agent="pbp tests by pbp_bot", timeout=timeout,
                          oauth_url=server.url, reddit_url=server.url)


@pytest.fixture
def reddit_publisher(fake_reddit):
    return RedditPublisher(reddit_settings(fake_reddit))
