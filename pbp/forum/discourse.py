"""Discourse, the second forum (docs/design.md: Public posts — publishing, the thread
watch, votes in the thread): each game has a topic; pbp posts each approved draft in it as
a reply and reads its posts, through Discourse's REST API (JSON over HTTPS, the API key and
the user name in the `Api-Key` and `Api-Username` headers), with `requests`.

pydiscourse, the Python client, is not used: it sleeps inside the call on a rate limit
(the daemon must not block; pbp waits for its own next try, as with praw's
`ratelimit_seconds = 0`), opens a connection per request, and covers these few calls with
no more than `requests` does.

The endpoints: `GET /t/{topic}.json` (the topic, its first posts and `post_stream.stream`,
the ids of all its posts), `GET /t/{topic}/posts.json?post_ids[]=…` (the others, a hundred
at a time), `include_raw` for the posts' Markdown; `POST /posts.json` (a reply with
`topic_id`, or a new topic with `title` and `category`); `GET
/topics/created-by/{user}.json` (pbp's own topics). A post carries `created_at`,
`updated_at` and `version` (above 1 once edited), `deleted_at` or `user_deleted` once
deleted, and `post_type` (1 for a regular post).

Idempotence, as with Reddit: a request that creates a post is never repeated blind (no
retry of a POST by the HTTP layer); when it gets no clear answer (a timeout, a 5xx) the
error is transient and pbp's next attempt first looks for the post's marker among pbp's
own posts of the topic, so a post goes out exactly once. Reads are retried by the HTTP
layer on a dropped connection or a 502/503/504, twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterator

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from pbp.forum.site_settings import DiscourseSettings as DiscourseSettings
from pbp.forum.publishing.publisher import (
    PermanentPublishError,
    Post,
    Published,
    TransientPublishError,
    thread_marker,
)
from pbp.forum.thread.posts import ThreadPost, same_account

CHUNK = 100  # post ids asked for per request
OWN_POSTS_LOOKED_AT = 200  # the topic's latest posts searched for a marker after a fault
REGULAR_POST = 1


def _moment(text: str | None) -> float | None:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() if text else None


class DiscourseForum:
    """Publisher (`find`, `publish`) and thread reader (`thread_posts`) of one Discourse."""

    def __init__(self, settings: DiscourseSettings, session: requests.Session | None = None):
        self.settings = settings
        self.base = settings.url.rstrip("/")
        self.session = session or requests.Session()
        self.session.headers.update(
            {
                "Api-Key": settings.api_key,
                "Api-Username": settings.api_username,
                "Accept": "application/json",
            }
        )
        reads = Retry(
            total=2,
            connect=2,
            read=2,
            status=2,
            allowed_methods=frozenset({"GET"}),
            status_forcelist=(502, 503, 504),
            backoff_factor=0.2,
            raise_on_status=False,
        )
        self.session.mount("http://", HTTPAdapter(max_retries=reads))
        self.session.mount("https://", HTTPAdapter(max_retries=reads))

    # ------------------------------------------------------------------ HTTP
    def _request(self, method: str, path: str, **kwargs: Any) -> Any:
        creates = method == "POST"
        try:
            response = self.session.request(
                method,
                self.base + path,
                timeout=self.settings.timeout,
                allow_redirects=False,
                **kwargs,
            )
        except requests.RequestException as error:
            maybe = (
                " (the post may have been made; pbp looks for it before trying again)"
                if creates
                else ""
            )
            raise TransientPublishError(
                f"no clear answer from Discourse ({type(error).__name__}){maybe}"
            ) from None
        if response.status_code == 429:
            wait = response.headers.get("Retry-After", "")
            raise TransientPublishError(
                f"Discourse rate limit{f' (wait {wait} s)' if wait else ''}"
            )
        if response.status_code >= 500:
            raise TransientPublishError(f"Discourse is unavailable (HTTP {response.status_code})")
        if response.status_code in (401, 403) or 300 <= response.status_code < 400:
            raise PermanentPublishError(
                f"Discourse refused pbp's key (HTTP {response.status_code}); check "
                "[discourse] api_username and api_key in the settings."
            )
        try:
            data = response.json()
        except ValueError:
            raise TransientPublishError(
                f"Discourse answered HTTP {response.status_code} with no JSON"
            ) from None
        if response.status_code >= 400:
            errors = data.get("errors") if isinstance(data, dict) else None
            why = (
                "; ".join(str(e) for e in errors[:3])
                if isinstance(errors, list)
                else f"HTTP {response.status_code}"
            )
            raise PermanentPublishError(f"Discourse refused the request: {why[:300]}")
        return data

    # ------------------------------------------------------------------ reading a topic
    def _topic_posts(self, topic: str, latest: int | None = None) -> Iterator[dict[str, Any]]:
        """The topic's posts in stream order (only the `latest` ones when given)."""
        data = self._request("GET", f"/t/{int(topic)}.json", params={"include_raw": "true"})
        stream = [int(i) for i in data.get("post_stream", {}).get("stream", [])]
        wanted = stream[-latest:] if latest else stream
        wanted_ids = set(wanted)
        have = {
            post["id"]: post
            for post in data.get("post_stream", {}).get("posts", [])
            if post["id"] in wanted_ids
        }
        missing = [i for i in wanted if i not in have]
        for start in range(0, len(missing), CHUNK):
            params: list[tuple[str, Any]] = [
                ("post_ids[]", i) for i in missing[start : start + CHUNK]
            ]
            more = self._request(
                "GET", f"/t/{int(topic)}/posts.json", params=[*params, ("include_raw", "true")]
            )
            have.update((post["id"], post) for post in more.get("post_stream", {}).get("posts", []))
        return (have[i] for i in wanted if i in have)

    def _url(self, post: dict[str, Any]) -> str:
        slug = post.get("topic_slug") or "-"
        return f"{self.base}/t/{slug}/{post['topic_id']}/{post['post_number']}"

    def _thread_post(self, post: dict[str, Any]) -> ThreadPost:
        created = _moment(post["created_at"]) or 0.0
        updated = _moment(post.get("updated_at")) or created
        deleted = bool(post.get("deleted_at") or post.get("user_deleted"))
        author = str(post.get("username") or "")
        return ThreadPost(
            id=str(post["id"]),
            author=author,
            text=str(post.get("raw") or ""),
            created=created,
            edited=updated if updated > created and int(post.get("version") or 1) > 1 else None,
            revision=(
                f"{post.get('version', 1)}@{post.get('updated_at', '')}"
                f"{'/deleted' if deleted else ''}"
            ),
            deleted=deleted,
            url=self._url(post),
            by_us=same_account(author, self.settings.api_username),
        )

    def thread_posts(self, thread: str) -> list[ThreadPost]:
        """Every regular post of the topic, oldest first (pbp.forum.thread.posts.ThreadReader)."""
        posts = [
            self._thread_post(post)
            for post in self._topic_posts(thread)
            if post.get("post_type", REGULAR_POST) == REGULAR_POST
        ]
        return sorted(posts, key=lambda post: post.created)

    # ------------------------------------------------------------------ publishing
    def _published(self, post: dict[str, Any]) -> Published:
        return Published(ref=str(post["id"]), url=self._url(post), thread=str(post["topic_id"]))

    def find(self, post: Post) -> Published | None:
        """The post if pbp already made it: its marker among pbp's latest posts of the topic."""
        topic = post.thread or self.find_thread(post.thread_title or f"Game {post.game}", post.game)
        if topic is None:
            return None
        for found in self._topic_posts(topic, latest=OWN_POSTS_LOOKED_AT):
            if same_account(
                found.get("username", ""), self.settings.api_username
            ) and post.marker in str(found.get("raw") or ""):
                return self._published(found)
        return None

    def find_thread(self, title: str, game: str) -> str | None:
        """The topic pbp made for the game: among pbp's own topics, the one with the game
        thread's title whose first post holds the thread marker."""
        topics = self._request("GET", f"/topics/created-by/{self.settings.api_username}.json")
        for topic in topics.get("topic_list", {}).get("topics", []):
            if topic.get("title") != title:
                continue
            first = self._request(
                "GET", f"/t/{int(topic['id'])}.json", params={"include_raw": "true"}
            )
            posts = first.get("post_stream", {}).get("posts", [])
            if posts and thread_marker(game) in str(posts[0].get("raw") or ""):
                return str(topic["id"])
        return None

    def ensure_thread(self, post: Post) -> str:
        """The game's topic, made (once) if needed; its first post carries the thread marker."""
        if post.thread:
            return post.thread
        title = post.thread_title or f"Game {post.game}"
        existing = self.find_thread(title, post.game)
        if existing:
            return existing
        intro = (
            f"{title}\n\nThe moderator posts each phase's results"
            f" below.\n\n<small>{thread_marker(post.game)}</small>\n"
        )
        fields: dict[str, Any] = {"title": title, "raw": intro}
        if self.settings.category is not None:
            fields["category"] = self.settings.category
        return str(self._request("POST", "/posts.json", json=fields)["topic_id"])

    def publish(self, post: Post) -> Published:
        topic = self.ensure_thread(post)
        made = self._request("POST", "/posts.json", json={"topic_id": int(topic), "raw": post.text})
        return self._published(made)
