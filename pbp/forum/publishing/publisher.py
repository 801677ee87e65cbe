"""What every publisher offers, and the marker that makes publishing idempotent
(docs/design.md: Public posts: "each post carries a unique marker; before any retry
pbp looks for its marker among its own recent posts").

A `Post` is an approved draft ready to go out. Its marker names the game, the phase and a
hash of the approved text; the dialect writes it into the post as a tiny note, so the
publisher can later recognise the post as its own even if pbp never learned that the
forum accepted it (a crash or a timeout after the forum committed the post).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol

import re

from pbp.forum.publishing.dialects import Dialect, PostText


def post_marker(game: str, phase: str, text: str) -> str:
    """`pbp:<game>:<phase>:<first 10 hex of sha256(text)>`: unique per approved post."""
    digest = hashlib.sha256(f"{game}\n{phase}\n{text}".encode()).hexdigest()[:10]
    return re.sub(r"[^A-Za-z0-9:_.-]", "_", f"pbp:{game}:{phase}:{digest}")


def thread_marker(game: str) -> str:
    """The marker of a game's thread (Reddit `thread` mode)."""
    return f"pbp:{game}:thread"


def with_marker(text: str, marker: str, dialect: Dialect) -> str:
    """The post text as published: the body, a blank line, the marker as tiny text."""
    # The marker is written as is (it holds only letters, digits and `:_.-`), so the very
    # string pbp searches for is in the published text.
    return f"{text.rstrip()}\n\n{dialect.small(PostText(marker))}\n"


@dataclass(frozen=True)
class Post:
    """One approved post. `thread` is the game thread's id when it is already known;
    `dialect` is the markup it is written in (the game's own, chosen per game)."""

    game: str
    phase: str
    title: str
    text: str  # the full text, marker included
    marker: str
    thread_title: str = ""
    thread: str | None = None
    dialect: str = ""


@dataclass(frozen=True)
class Published:
    """Where a post went: `ref` is the forum's id (a Reddit fullname, a file name)."""

    ref: str
    url: str
    thread: str | None = None


class TransientPublishError(Exception):
    """The forum could not take the post now (rate limit, 5xx, timeout): try again later.
    Whether the forum committed the post is unknown; the next attempt looks first."""


class PermanentPublishError(Exception):
    """The forum refused the post for good (bad credentials, no such subreddit)."""


class Publisher(Protocol):
    def find(self, post: Post) -> Published | None:
        """The post if it is already on the forum (its marker among our recent posts)."""

    def publish(self, post: Post) -> Published:
        """Put the post on the forum, or raise Transient/PermanentPublishError."""
