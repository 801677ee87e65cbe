"""The Reddit publisher and reader, through praw (docs/design.md: Public posts:
publishing, the thread watch).

Idempotence: a post goes to Reddit at most once per pbp attempt, and before a retry pbp
looks for the post's marker among its own recent submissions and comments. Two things
would otherwise post twice, and are switched off here:
- prawcore retries a request that timed out or got a 5xx by itself, blind; for the
  requests that create a post (`POST /api/submit`, `/api/comment`), `_OneShotRequestor`
  turns those into an "outcome unknown" error that prawcore does not retry, so the only
  retry is pbp's own, which looks for the marker first;
- praw sleeps and retries a short RATELIMIT itself; `ratelimit_seconds = 0` makes it hand
  every rate limit back to pbp, which waits without blocking the daemon.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

import praw
import prawcore
from praw.exceptions import RedditAPIException
from praw.models import Redditor
import requests

from pbp.forum.reddit_thread import thread_posts
from pbp.forum.site_settings import MODES as MODES, RedditSettings as RedditSettings
from pbp.forum.thread.posts import ThreadPost
from pbp.forum.publishing.publisher import (
    PermanentPublishError,
    Post,
    Published,
    TransientPublishError,
    thread_marker,
)

# How far back pbp looks for its own posts: well beyond the posts of one game's retries.
RECENT_LIMIT = 100


class PostOutcomeUnknown(Exception):
    """A request that creates a post got no clear answer: it may have been committed."""


class _OneShotRequestor(prawcore.Requestor):
    """prawcore's requestor, except that a post-creating request is never repeated blind,
    and the `[reddit] timeout` setting applies to every request."""

    WRITE_PATHS = ("/api/submit", "/api/comment")

    def request(self, *args: Any, timeout: float | None = None, **kwargs: Any) -> requests.Response:
        method, url = str(args[0]), str(args[1])  # prawcore passes both positionally
        creates_post = method.upper() == "POST" and any(p in url for p in self.WRITE_PATHS)
        kwargs["timeout"] = self.timeout  # prawcore passes its own default; the setting wins
        try:
            response = super().request(*args, **kwargs)
        except prawcore.RequestException as error:
            if not creates_post:
                raise
            raise prawcore.RequestException(
                PostOutcomeUnknown(str(error.original_exception)),
                error.request_args,
                error.request_kwargs,
            ) from None
        if creates_post and response.status_code >= 500:
            raise prawcore.RequestException(
                PostOutcomeUnknown(f"HTTP {response.status_code}"), args, kwargs
            )
        return response


def connect(settings: RedditSettings) -> praw.Reddit:
    """A praw client for these settings (no request is made yet)."""
    config: dict[str, Any] = {"check_for_updates": False, "ratelimit_seconds": 0}
    for key in (
        "client_id",
        "client_secret",
        "username",
        "password",
        "user_agent",
        "oauth_url",
        "reddit_url",
    ):
        value = getattr(settings, key)
        if value:
            config[key] = value
    if settings.reddit_url:
        config["short_url"] = settings.reddit_url
    return praw.Reddit(
        settings.site or None,
        requestor_class=_OneShotRequestor,
        requestor_kwargs={"timeout": settings.timeout},
        **config,
    )


def _classify(error: Exception) -> Exception:
    """A praw / prawcore failure as pbp's transient or permanent publishing error."""
    if isinstance(error, RedditAPIException):
        if any(item.error_type == "RATELIMIT" for item in error.items):
            return TransientPublishError(f"Reddit rate limit: {error.items[0].message}")
        return PermanentPublishError(f"Reddit refused the post: {error}")
    if isinstance(error, prawcore.RequestException):
        return TransientPublishError(f"no clear answer from Reddit ({error.original_exception})")
    if isinstance(error, (prawcore.ServerError, prawcore.TooManyRequests)):
        return TransientPublishError(f"Reddit is unavailable ({error})")
    if isinstance(error, (prawcore.OAuthException, prawcore.Forbidden, prawcore.InvalidToken)):
        return PermanentPublishError(
            f"Reddit refused pbp's credentials ({error}); check [reddit] in the settings."
        )
    if isinstance(error, prawcore.ResponseException):
        return PermanentPublishError(f"Reddit refused the request ({error}).")
    return error


def _body(thing: Any) -> str:
    return getattr(thing, "body", None) or getattr(thing, "selftext", "") or ""


class RedditPublisher:
    """Posts to one subreddit: `thread` mode (one thread per game, a comment per phase)
    or `posts` mode (a submission per phase)."""

    def __init__(self, settings: RedditSettings, reddit: praw.Reddit | None = None):
        if settings.mode not in MODES:
            raise ValueError(f"Reddit mode {settings.mode!r} is not one of: {', '.join(MODES)}.")
        self.settings = settings
        self.reddit = reddit or connect(settings)
        self._my_name = ""

    # ------------------------------------------------------------------ reading our own posts
    def _me(self) -> Redditor:
        me = self.reddit.user.me()
        if me is None:  # praw's read-only mode, which `connect` never asks for
            raise PermanentPublishError(
                "Reddit answered as an anonymous reader; set [reddit] username and "
                "password (or a praw.ini site) so pbp posts as its own account."
            )
        return me

    def _own_submissions(self) -> Iterator[Any]:
        submissions: Iterator[Any] = self._me().submissions.new(limit=RECENT_LIMIT)
        return submissions

    def _own_comments(self) -> Iterator[Any]:
        comments: Iterator[Any] = self._me().comments.new(limit=RECENT_LIMIT)
        return comments

    @staticmethod
    def _with_marker(things: Iterable[Any], marker: str) -> Any | None:
        for thing in things:
            if marker in _body(thing):
                return thing
        return None

    def _published(self, thing: Any, thread: str | None) -> Published:
        return Published(
            ref=thing.fullname, url=f"https://reddit.com{thing.permalink}", thread=thread
        )

    def find(self, post: Post) -> Published | None:
        try:
            if self.settings.mode == "posts":
                thing = self._with_marker(self._own_submissions(), post.marker)
                return self._published(thing, None) if thing else None
            thing = self._with_marker(self._own_comments(), post.marker)
            return self._published(thing, thing.link_id) if thing else None
        except Exception as error:  # noqa: BLE001 - reported as pbp's own error kinds
            raise _classify(error) from None

    def find_thread(self, game: str) -> str | None:
        """The fullname of the game's thread if pbp already made it."""
        try:
            thing = self._with_marker(self._own_submissions(), thread_marker(game))
        except Exception as error:  # noqa: BLE001
            raise _classify(error) from None
        return thing.fullname if thing else None

    # ------------------------------------------------------------------ posting
    def _submit(self, title: str, text: str) -> Any:
        return self.reddit.subreddit(self.settings.subreddit).submit(title, selftext=text)

    def ensure_thread(self, post: Post) -> str:
        """The game's thread, made (once) if needed; its text carries the thread marker."""
        if post.thread:
            return post.thread
        existing = self.find_thread(post.game)
        if existing:
            return existing
        intro = (
            f"{post.thread_title}\n\nThe moderator posts each phase's results below."
            f"\n\n^({thread_marker(post.game)})\n"
        )
        try:
            thread = self._submit(post.thread_title or f"Game {post.game}", intro)
        except Exception as error:  # noqa: BLE001
            raise _classify(error) from None
        return str(thread.fullname)

    def publish(self, post: Post) -> Published:
        if self.settings.mode == "posts":
            try:
                thing = self._submit(post.title, post.text)
            except Exception as error:  # noqa: BLE001
                raise _classify(error) from None
            return self._published(thing, None)
        thread = self.ensure_thread(post)
        try:
            submission = self.reddit.submission(id=thread.split("_", 1)[-1])
            comment = submission.reply(post.text)
        except Exception as error:  # noqa: BLE001
            raise _classify(error) from None
        return self._published(comment, thread)

    # ------------------------------------------------------------------ reading the thread
    def thread_posts(self, thread: str) -> list[ThreadPost]:
        """Every comment of the game's thread as a `ThreadPost`, oldest first
        (pbp.forum.reddit_thread)."""
        try:
            return thread_posts(self.reddit, thread, self.username())
        except Exception as error:  # noqa: BLE001
            raise _classify(error) from None

    def username(self) -> str:
        """pbp's own account (the settings', else asked of Reddit once)."""
        if self.settings.username:
            return self.settings.username
        try:
            self._my_name = self._my_name or str(self.reddit.user.me())
            return self._my_name
        except Exception as error:  # noqa: BLE001
            raise _classify(error) from None
