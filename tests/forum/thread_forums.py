"""The two forums a game's thread may live on, as the thread-vote tests drive them: the
local Reddit (through the real praw) and the local Discourse (through pbp's real
`requests` client), behind one small interface: settings for pbp, a player's post, an
edit, a deletion, and reads that fail (docs/design.md: Testing)."""

from __future__ import annotations

import configparser
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbp.cli import main
from pbp.demo.discourse_server import LocalDiscourse
from tests.forum.reddit_server import FakeReddit

HOST = "host@example.org"


def _settings(tmp_path: Path, sections: dict[str, dict[str, str]]) -> Path:
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    config = configparser.ConfigParser(interpolation=None)
    config.read(settings)
    sections = {**sections, "forum": {"host_address": HOST, **sections.get("forum", {})}}
    for name, values in sections.items():
        if not config.has_section(name):
            config.add_section(name)
        config[name].update(values)
    with open(settings, "w") as handle:
        config.write(handle)
    return settings


@dataclass
class RedditForum:
    server: FakeReddit
    name: str = "reddit"

    def settings_file(self, tmp_path: Path) -> Path:
        server = self.server
        return _settings(
            tmp_path,
            {
                "forum": {"publisher": "reddit"},
                "reddit": {
                    "client_id": "test-client",
                    "client_secret": "test-secret",
                    "username": server.username,
                    "password": "pw",
                    "user_agent": "pbp tests by pbp_bot",
                    "subreddit": server.subreddit,
                    "mode": "thread",
                    "timeout": "5",
                    "oauth_url": server.url,
                    "reddit_url": server.url,
                },
            },
        )

    def post(self, thread: str, author: str, text: str, at: float) -> Any:
        return self.server.add_comment(thread, text, author, at)

    def edit(self, post: Any, text: str, at: float) -> None:
        self.server.edit_comment(post, text, at)

    def delete(self, post: Any, at: float) -> None:
        self.server.delete_comment(post)

    def fail_reads(self) -> None:
        """Every read of a thread fails (503) until `heal`."""
        self.server.fail_next("503", path="/comments/", count=10_000)

    def heal(self) -> None:
        self.server.clear_faults()

    def published(self) -> list[str]:
        return [thing.body for thing in self.server.posts_by_bot() if thing.kind == "t1"]

    def reads(self) -> int:
        return sum(1 for _, path in self.server.requests if path.startswith("/comments/"))


@dataclass
class DiscourseForum:
    server: LocalDiscourse
    name: str = "discourse"

    def settings_file(self, tmp_path: Path) -> Path:
        server = self.server
        return _settings(
            tmp_path,
            {
                "forum": {"publisher": "discourse"},
                "discourse": {
                    "url": server.url,
                    "api_username": server.username,
                    "api_key": server.api_key,
                    "timeout": "5",
                },
            },
        )

    def post(self, thread: str, author: str, text: str, at: float) -> Any:
        return self.server.reply(int(thread), text, author, at)

    def edit(self, post: Any, text: str, at: float) -> None:
        self.server.edit(post, text, at)

    def delete(self, post: Any, at: float) -> None:
        self.server.delete(post, at)

    def fail_reads(self) -> None:
        self.server.fail_next("503", path="/t/", count=10_000)

    def heal(self) -> None:
        self.server.clear_faults()

    def published(self) -> list[str]:
        return [
            post.raw for post in self.server.posts_by(self.server.username) if post.post_number > 1
        ]

    def reads(self) -> int:
        return sum(
            1 for method, path in self.server.requests if method == "GET" and path.startswith("/t/")
        )
