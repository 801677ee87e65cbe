"""The settings of each forum site pbp publishes to, `[reddit]` and `[discourse]` in the
settings file: plain values, apart from the clients (praw, requests) that use them, so that
reading the settings never loads a forum's client (docs/design.md: Start-up)."""

from __future__ import annotations

from dataclasses import dataclass

MODES = ("thread", "posts")  # `[reddit] mode`: the game's posts as one thread, or as posts


@dataclass(frozen=True)
class RedditSettings:
    """`[reddit]` in the settings file. Either `site` (a praw.ini section) or the
    script-app credentials. `oauth_url` / `reddit_url` only change in tests."""

    subreddit: str
    mode: str = "thread"
    site: str = ""
    client_id: str = ""
    client_secret: str = ""
    username: str = ""
    password: str = ""
    user_agent: str = "pbp play-by-post moderator (by the game's host)"
    timeout: float = 16.0
    oauth_url: str = ""
    reddit_url: str = ""


@dataclass(frozen=True)
class DiscourseSettings:
    """`[discourse]` in the settings file."""

    url: str  # the forum's address, e.g. https://forum.example.org
    api_username: str
    api_key: str
    category: int | None = None  # where new game topics go
    timeout: float = 16.0
