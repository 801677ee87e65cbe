"""A game's public thread as a forum gives it (docs/design.md: Public posts — the thread
watch, votes in the thread): every post with its author and the times the forum reports,
whichever forum it comes from (Reddit: pbp.forum.reddit_thread; Discourse:
pbp.forum.discourse)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

# A post is hostile input: only its first characters are read (Reddit takes at most
# 10,000 per comment, Discourse 32,000 by default).
MAX_POST_CHARS = 32_000
MAX_AUTHOR_CHARS = 60


def account_key(name: str) -> str:
    """A forum account's name as the forum compares names: NFC, then lower case (not
    `casefold`, which makes `ſ` an `s` and `ß` an `ss`: names the forum holds apart)."""
    return unicodedata.normalize("NFC", name.strip()).lower()


def same_account(one: str, other: str) -> bool:
    return account_key(one) == account_key(other)


@dataclass(frozen=True)
class ThreadPost:
    """One post of a thread.

    - `id`: the forum's own id (a Reddit fullname, a Discourse post id);
    - `author`: the forum account's name ("" once the account or the post is deleted);
    - `created`: when the forum says it was written (seconds since the epoch);
    - `edited`: when it was last edited, if the forum says so (Reddit's `edited`, Discourse's
      `updated_at` of a post whose `version` is above 1), else None;
    - `revision`: what changes whenever the post is edited (a Reddit edit time, a Discourse
      version), so an unchanged post is known without reading its text again;
    - `deleted`: the post or its author was deleted (its text is gone);
    - `url`: where the post can be read;
    - `by_us`: pbp's own post (the account pbp publishes with), never read for votes."""

    id: str
    author: str
    text: str
    created: float
    edited: float | None = None
    revision: str = ""
    deleted: bool = False
    url: str = ""
    by_us: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self.text[:MAX_POST_CHARS])
        object.__setattr__(self, "author", self.author[:MAX_AUTHOR_CHARS])

    def as_comment(self) -> dict[str, object]:
        """The post as the thread watch reads a comment (pbp.forum.thread.watch_rules)."""
        return {"id": self.id, "author": self.author, "body": self.text, "created": self.created}


@runtime_checkable
class ThreadReader(Protocol):
    """What reads a game's thread (pbp.forum.reddit_thread.RedditThreadReader,
    pbp.forum.discourse.DiscourseForum). Failures are pbp.forum.publishing.publisher's transient or
    permanent errors."""

    def thread_posts(self, thread: str) -> Sequence[ThreadPost]:
        """Every post of the thread, oldest first."""
