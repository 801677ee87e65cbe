"""A local stand-in for the part of Reddit's API that pbp uses, for the REAL praw
(docs/design.md: Testing).

`FakeReddit` runs a `ThreadingHTTPServer` on 127.0.0.1 and speaks: the OAuth token
(`POST /api/v1/access_token`), `GET /api/v1/me`, `POST /api/submit`, `POST /api/comment`,
the user listings (`/user/<name>/submitted`, `/user/<name>/comments`), a thread with its
comments (`GET /comments/<id>`), a subreddit's new posts (`GET /r/<sub>/new`) and
`/api/info`. Tests point praw at it through `oauth_url` / `reddit_url`.

Faults are programmed by count and released explicitly, never by a delay racing the
client's timeout (pbp.demo.local_http, the plumbing it shares with the local Discourse):
`fail_next(kind, path=…, count=N)` makes the next N matching requests
- `ratelimit`: answer Reddit's RATELIMIT error;
- `503`: answer a 503;
- `drop`: commit the post, then close the connection without an answer;
- `hold`: commit the post, then answer nothing until the test calls `release()`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qs

from pbp.demo.local_http import JsonHandler, LocalServer


@dataclass
class Thing:
    """A submission (t3) or a comment (t1), as the server stores it."""

    kind: str
    id: str
    author: str
    subreddit: str
    created_utc: float
    title: str = ""
    body: str = ""
    link_id: str = ""
    parent_id: str = ""
    children: list[str] = field(default_factory=list)
    edited: float | bool = False  # Reddit's `edited`: false, or when the thing was last edited

    @property
    def fullname(self) -> str:
        return f"{self.kind}_{self.id}"


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    text = ""
    while True:
        number, rest = divmod(number, 36)
        text = digits[rest] + text
        if not number:
            return text


class _Handler(JsonHandler):
    server_state: FakeReddit

    # ------------------------------------------------------------------ endpoints
    def answer(self, method: str, path: str, query_text: str, body: bytes) -> tuple[int, object]:
        fake = self.server_state
        query = {key: values[-1] for key, values in parse_qs(query_text).items()}
        form = {
            key: values[-1]
            for key, values in parse_qs(body.decode(), keep_blank_values=True).items()
        }
        parts = [p for p in path.split("/") if p]
        if method == "POST" and path == "/api/v1/access_token":
            return 200, {
                "access_token": "fake-token",
                "token_type": "bearer",
                "expires_in": 3600,
                "scope": "*",
            }
        if method == "GET" and path == "/api/v1/me":
            return 200, {"name": fake.username, "id": "bot1", "created_utc": 1_600_000_000.0}
        if method == "POST" and path == "/api/submit":
            thing = fake.add_submission(form.get("title", ""), form.get("text", ""))
            return 200, {
                "json": {
                    "errors": [],
                    "data": {
                        "url": f"{fake.url}/r/{thing.subreddit}/comments/{thing.id}/",
                        "id": thing.id,
                        "name": thing.fullname,
                    },
                }
            }
        if method == "POST" and path == "/api/comment":
            parent = form.get("thing_id", "")
            if parent not in fake.things:
                return 200, {
                    "json": {"errors": [["NO_THING", "that thing does not exist", "parent"]]}
                }
            thing = fake.add_comment(parent, form.get("text", ""), fake.username)
            return 200, {"json": {"errors": [], "data": {"things": [fake.thing_json(thing)]}}}
        if method == "GET" and len(parts) >= 3 and parts[0] == "user":
            author, which = parts[1], parts[2]
            things = fake.submissions(author) if which == "submitted" else fake.comments(author)
            limit = int(query.get("limit", 100))
            return 200, fake.listing(list(reversed(things))[:limit])
        if method == "GET" and len(parts) >= 2 and parts[0] == "comments":
            submission = fake.things.get(f"t3_{parts[1]}")
            if submission is None:
                return 404, {"message": "Not Found", "error": 404}
            top = [fake.things[c] for c in submission.children]
            return 200, [fake.listing([submission]), fake.listing(top)]
        if method == "GET" and len(parts) >= 3 and parts[0] == "r" and parts[2] == "new":
            return 200, fake.listing(list(reversed(fake.submissions())))
        if method == "GET" and path == "/api/info":
            names = [n for n in query.get("id", "").split(",") if n in fake.things]
            return 200, fake.listing([fake.things[n] for n in names])
        return 404, {"message": "Not Found", "error": 404}


class FakeReddit(LocalServer):
    """The server and its state. Thread-safe: every handler takes `self.lock`."""

    INSTANT_FAULTS = {
        "503": (503, {"message": "Service Unavailable", "error": 503}),
        "ratelimit": (
            200,
            {
                "json": {
                    "errors": [
                        [
                            "RATELIMIT",
                            "Looks like you've been doing that a lot. Take a break for 5 minutes before trying again.",
                            "ratelimit",
                        ]
                    ]
                }
            },
        ),
    }
    HANDLER = _Handler

    def __init__(self, username: str = "pbp_bot", subreddit: str = "pbptest"):
        super().__init__()
        self.username = username
        self.subreddit = subreddit
        self.things: dict[str, Thing] = {}  # fullname -> thing
        self.order: list[str] = []  # fullnames, oldest first
        self._next_id = 1000
        self._clock = 1_700_000_000.0

    def add_submission(self, title: str, body: str, author: str | None = None) -> Thing:
        return self._create("t3", author or self.username, title=title, body=body)

    def add_comment(
        self, parent_fullname: str, body: str, author: str, created_utc: float | None = None
    ) -> Thing:
        """A comment by anyone; `created_utc` sets when it was written (default: the
        server's own clock, one second after the last thing)."""
        return self._create(
            "t1", author, body=body, parent=parent_fullname, created_utc=created_utc
        )

    def edit_comment(self, thing: Thing, body: str, at: float) -> None:
        """The author edits a comment at `at` (Reddit then reports `edited` = that time)."""
        with self.lock:
            thing.body, thing.edited = body, at

    def delete_comment(self, thing: Thing) -> None:
        """The author deletes a comment: Reddit keeps it in the listing, its author and
        body shown as `[deleted]`."""
        with self.lock:
            thing.body, thing.author = "[deleted]", "[deleted]"

    # ------------------------------------------------------------------ queries for tests
    def submissions(self, author: str | None = None) -> list[Thing]:
        with self.lock:
            return [
                self.things[n]
                for n in self.order
                if n.startswith("t3_") and (author is None or self.things[n].author == author)
            ]

    def comments(self, author: str | None = None) -> list[Thing]:
        with self.lock:
            return [
                self.things[n]
                for n in self.order
                if n.startswith("t1_") and (author is None or self.things[n].author == author)
            ]

    def posts_by_bot(self) -> list[Thing]:
        with self.lock:
            return [self.things[n] for n in self.order if self.things[n].author == self.username]

    # ------------------------------------------------------------------ state changes
    def _create(
        self,
        kind: str,
        author: str,
        title: str = "",
        body: str = "",
        parent: str = "",
        created_utc: float | None = None,
    ) -> Thing:
        with self.lock:
            self._next_id += 1
            self._clock += 1
            created = self._clock if created_utc is None else created_utc
            thing = Thing(
                kind,
                _base36(self._next_id),
                author,
                self.subreddit,
                created,
                title=title,
                body=body,
            )
            if kind == "t1":
                parent_thing = self.things[parent]
                thing.parent_id = parent
                thing.link_id = parent if parent.startswith("t3_") else parent_thing.link_id
                parent_thing.children.append(thing.fullname)
            self.things[thing.fullname] = thing
            self.order.append(thing.fullname)
            return thing

    # ------------------------------------------------------------------ JSON shapes
    def thing_json(self, thing: Thing) -> dict:
        common = {
            "id": thing.id,
            "name": thing.fullname,
            "author": thing.author,
            "subreddit": thing.subreddit,
            "created_utc": thing.created_utc,
        }
        if thing.kind == "t3":
            permalink = f"/r/{thing.subreddit}/comments/{thing.id}/"
            return {
                "kind": "t3",
                "data": {
                    **common,
                    "title": thing.title,
                    "selftext": thing.body,
                    "is_self": True,
                    "permalink": permalink,
                    "url": self.url + permalink,
                    "num_comments": len(thing.children),
                },
            }
        replies = ""
        if thing.children:
            replies = self.listing([self.things[c] for c in thing.children])
        link = self.things[thing.link_id]
        return {
            "kind": "t1",
            "data": {
                **common,
                "body": thing.body,
                "edited": thing.edited,
                "link_id": thing.link_id,
                "parent_id": thing.parent_id,
                "replies": replies,
                "permalink": f"/r/{thing.subreddit}/comments/{link.id}/_/{thing.id}/",
            },
        }

    def listing(self, things: list[Thing]) -> dict:
        return {
            "kind": "Listing",
            "data": {
                "after": None,
                "before": None,
                "dist": len(things),
                "children": [self.thing_json(t) for t in things],
            },
        }
