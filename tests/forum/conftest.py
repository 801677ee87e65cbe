"""Fixtures for the public-thread tests: the local fake Reddit, and praw pointed at it."""

from __future__ import annotations

import configparser

import pytest

from pbp.cli import main
from pbp.forum.reddit import RedditPublisher, RedditSettings
from pbp.game.stored import load
from pbp.composition import ComposedModerator
from pbp.settings import load_settings
from tests.forum.reddit_server import FakeReddit


@pytest.fixture
def fake_reddit():
    server = FakeReddit().start()
    yield server
    server.stop()


def reddit_settings(
    server: FakeReddit, mode: str = "thread", timeout: float = 5.0
) -> RedditSettings:
    return RedditSettings(
        subreddit=server.subreddit,
        mode=mode,
        client_id="test-client",
        client_secret="test-secret",
        username=server.username,
        password="pw",
        user_agent="pbp tests by pbp_bot",
        timeout=timeout,
        oauth_url=server.url,
        reddit_url=server.url,
    )


@pytest.fixture
def reddit_publisher(fake_reddit):
    return RedditPublisher(reddit_settings(fake_reddit))


ROSTER = "name,email,timezone,forum_name\n" + "".join(
    f"{n},{n.lower()}@example.org,,{n.lower()}_r\n"
    for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid")
)


@pytest.fixture
def host_game(tmp_path, monkeypatch, capsys):
    """An Infiltration game whose first phase is resolved (so its first draft exists)."""
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    config = configparser.ConfigParser(interpolation=None)
    config.read(settings)
    config["forum"]["host_address"] = "host@example.org"
    config["forum"]["posts"] = str(tmp_path / "posts")
    with open(settings, "w") as handle:
        config.write(handle)
    (tmp_path / "roster.csv").write_text(ROSTER)
    monkeypatch.setenv("PBP_SETTINGS", str(settings))
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(tmp_path / "roster.csv"),
                "--id",
                "inf1",
                "--seed",
                "7",
                "--no-send",
            ]
        )
        == 0
    )
    assert main(["advance", "inf1"]) == 0
    capsys.readouterr()
    return tmp_path


def stored(folder):
    moderator = ComposedModerator(load_settings(str(folder / "pbp.ini")))
    return moderator, load(moderator, "inf1")


def reddit_settings_file(tmp_path, server: FakeReddit, mode: str = "thread"):
    """`pbp init` settings whose publisher is Reddit, i.e. the local fake Reddit (praw's
    `oauth_url` / `reddit_url` through `[reddit]`), as a host would configure it."""
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    config = configparser.ConfigParser(interpolation=None)
    config.read(settings)
    config["forum"]["publisher"] = "reddit"
    if not config.has_section("reddit"):
        config.add_section("reddit")
    config["reddit"].update(
        {
            "client_id": "test-client",
            "client_secret": "test-secret",
            "username": server.username,
            "password": "pw",
            "user_agent": "pbp tests by pbp_bot",
            "subreddit": server.subreddit,
            "mode": mode,
            "timeout": "5",
            "oauth_url": server.url,
            "reddit_url": server.url,
        }
    )
    with open(settings, "w") as handle:
        config.write(handle)
    return settings


@pytest.fixture(params=["reddit", "discourse"])
def thread_forum(request):
    """Each forum a thread may live on, started for one test (tests.forum.thread_forums)."""
    from pbp.demo.discourse_server import LocalDiscourse
    from tests.forum.thread_forums import DiscourseForum, RedditForum

    server = (FakeReddit() if request.param == "reddit" else LocalDiscourse()).start()
    yield RedditForum(server) if request.param == "reddit" else DiscourseForum(server)
    server.stop()
