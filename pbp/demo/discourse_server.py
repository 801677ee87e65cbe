"""A local forum speaking the part of Discourse's REST API that pbp uses, on 127.0.0.1:
`pbp demo --votes thread` plays on it, and the tests read and publish through pbp's real
client (`requests`, pbp.forum.discourse) against it (docs/design.md: Testing).

It speaks the documented JSON: `POST /posts.json` (a reply with `topic_id`, or a new topic
with `title`), `GET /t/{id}.json` (the topic with its first 20 posts and `post_stream.stream`,
every post id), `GET /t/{id}/posts.json?post_ids[]=…` (the other posts), `GET
/topics/created-by/{user}.json`. Posts carry `created_at`, `updated_at`, `version`,
`raw` (asked with `include_raw`), `post_number`, `post_type`, `deleted_at` and
`user_deleted`. Requests without the right `Api-Key` and `Api-Username` are refused with
403, as Discourse does.

Faults are programmed by count and released explicitly, never by a delay (`503`, `drop`,
`hold`; pbp.demo.local_http, the plumbing it shares with the tests' local Reddit).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from urllib.parse import parse_qs

from pbp.demo.local_http import JsonHandler, LocalServer

FIRST_CHUNK = 20  # posts a topic's own JSON carries; the rest come by post_ids[]


def iso(moment: float) -> str:
    return (
        datetime.fromtimestamp(moment, tz=timezone.utc)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


@dataclass
class DiscoursePost:
    id: int
    topic_id: int
    post_number: int
    username: str
    raw: str
    created_at: float
    updated_at: float
    version: int = 1
    deleted_at: float | None = None


@dataclass
class Topic:
    id: int
    title: str
    slug: str
    author: str
    posts: list[int]


class _Handler(JsonHandler):
    server_state: LocalDiscourse

    def refusal(self) -> tuple[int, object] | None:
        fake = self.server_state
        if (
            self.headers.get("Api-Key") != fake.api_key
            or self.headers.get("Api-Username") != fake.username
        ):
            return 403, {
                "errors": ["You are not permitted to view the requested resource."],
                "error_type": "invalid_access",
            }
        return None

    def answer(self, method: str, path: str, query: str, body: bytes) -> tuple[int, object]:
        return self._answer(method, path, parse_qs(query), json.loads(body) if body else {})

    def _answer(
        self, method: str, path: str, query: dict[str, Any], body: dict[str, Any]
    ) -> tuple[int, object]:
        fake = self.server_state
        parts = [p for p in path.split("/") if p]
        with fake.lock:
            if method == "POST" and path == "/posts.json":
                raw = str(body.get("raw", ""))
                if "topic_id" in body:
                    if int(body["topic_id"]) not in fake.topics:
                        return 404, {
                            "errors": ["The requested URL or resource could not be found."]
                        }
                    return 200, fake.post_json(
                        fake.reply(int(body["topic_id"]), raw, fake.username)
                    )
                return 200, fake.post_json(
                    fake.new_topic(str(body.get("title", "")), raw, fake.username)
                )
            if (
                method == "GET"
                and len(parts) == 2
                and parts[0] == "t"
                and parts[1].endswith(".json")
            ):
                topic = fake.topics.get(int(parts[1][:-5]))
                return (200, fake.topic_json(topic)) if topic else (404, {"errors": ["Not found"]})
            if method == "GET" and len(parts) == 3 and parts[0] == "t" and parts[2] == "posts.json":
                wanted = [int(i) for i in query.get("post_ids[]", [])]
                return 200, {
                    "post_stream": {
                        "posts": [fake.post_json(fake.posts[i]) for i in wanted if i in fake.posts]
                    },
                    "id": int(parts[1]),
                }
            if method == "GET" and len(parts) == 3 and parts[:2] == ["topics", "created-by"]:
                user = parts[2][:-5]
                topics = [
                    {"id": t.id, "title": t.title, "slug": t.slug}
                    for t in fake.topics.values()
                    if t.author == user
                ]
                return 200, {"topic_list": {"topics": topics}}
        return 404, {"errors": ["The requested URL or resource could not be found."]}


class LocalDiscourse(LocalServer):
    """The server and its state; every handler takes `self.lock`."""

    INSTANT_FAULTS = {"503": (503, {"errors": ["Service Unavailable"]})}
    HANDLER = _Handler

    def __init__(self, username: str = "pbp_bot", api_key: str = "test-key", port: int = 0):
        super().__init__(port)
        self.username, self.api_key = username, api_key
        self.topics: dict[int, Topic] = {}
        self.posts: dict[int, DiscoursePost] = {}
        self.clock = 1_700_000_000.0

    # ------------------------------------------------------------------ the forum's users
    def new_topic(
        self, title: str, raw: str, author: str, at: float | None = None
    ) -> DiscoursePost:
        with self.lock:
            slug = "-".join(re.findall(r"[a-z0-9]+", title.lower()))[:40] or "topic"
            topic = Topic(len(self.topics) + 1, title, slug, author, [])
            self.topics[topic.id] = topic
            return self.reply(topic.id, raw, author, at)

    def reply(self, topic_id: int, raw: str, author: str, at: float | None = None) -> DiscoursePost:
        """A post by anyone; `at` is when it was written (default: one second after the last)."""
        with self.lock:
            self.clock = max(self.clock + 1, at or 0)
            moment = at if at is not None else self.clock
            topic = self.topics[topic_id]
            post = DiscoursePost(
                len(self.posts) + 1, topic_id, len(topic.posts) + 1, author, raw, moment, moment
            )
            self.posts[post.id] = post
            topic.posts.append(post.id)
            return post

    def edit(self, post: DiscoursePost, raw: str, at: float) -> None:
        with self.lock:
            post.raw, post.updated_at, post.version = raw, at, post.version + 1

    def delete(self, post: DiscoursePost, at: float) -> None:
        """The author deletes their post: Discourse keeps it, marked, its text replaced."""
        with self.lock:
            post.deleted_at, post.updated_at, post.raw = at, at, "(post deleted by author)"

    def posts_by(self, username: str) -> list[DiscoursePost]:
        with self.lock:
            return [post for post in self.posts.values() if post.username == username]

    # ------------------------------------------------------------------ JSON shapes
    def post_json(self, post: DiscoursePost) -> dict[str, Any]:
        topic = self.topics[post.topic_id]
        return {
            "id": post.id,
            "topic_id": post.topic_id,
            "topic_slug": topic.slug,
            "post_number": post.post_number,
            "username": post.username,
            "name": post.username.title(),
            "raw": post.raw,
            "cooked": f"<p>{post.raw}</p>",
            "created_at": iso(post.created_at),
            "updated_at": iso(post.updated_at),
            "version": post.version,
            "post_type": 1,
            "deleted_at": iso(post.deleted_at) if post.deleted_at else None,
            "user_deleted": post.deleted_at is not None,
        }

    def topic_json(self, topic: Topic) -> dict[str, Any]:
        return {
            "id": topic.id,
            "title": topic.title,
            "slug": topic.slug,
            "posts_count": len(topic.posts),
            "post_stream": {
                "posts": [self.post_json(self.posts[i]) for i in topic.posts[:FIRST_CHUNK]],
                "stream": list(topic.posts),
            },
        }
