"""Publishing approved drafts in order, once each, to the game's publisher (docs/design.md:
Public posts): files or Reddit, found again by its marker after a fault, retried with
backoff."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Callable

from pbp.crashpoints import crash_point
from pbp.schedule import Backoff
from pbp.storage.drafts import APPROVED, OPTIONAL_KINDS, PUBLISHED, DraftBook, DraftRow
from pbp.forum.config import ForumSettings
from pbp.forum.publishing.dialects import dialect as make_dialect
from pbp.forum.publishing.files import FilePublisher
from pbp.forum.publishing.publisher import (
    PermanentPublishError,
    Post,
    Published,
    Publisher,
    TransientPublishError,
    with_marker,
)
from pbp.forum.publishing.review import first_unapproved
from pbp.game.deadlines import start_clock
from pbp.game.stored import StoredGame, load
from pbp.moderator import Moderator
from pbp.storage.drafts import OPENING

# A post that failed for now: a minute after the first failure, doubling, at most an hour;
# one that failed for good is looked at again after the longest wait.
RETRY = Backoff(first=60.0, longest=3600.0)


def publish_game(
    game: StoredGame,
    publisher: Publisher,
    now: Callable[[], float] = time.time,
    ignore_wait: bool = False,
    on_event: Callable[[str], None] = lambda text: None,
) -> list[DraftRow]:
    """Publish the game's approved drafts in phase order, stopping at the first one not
    approved (so posts never go out of order) or one that must wait for a retry.

    Idempotent: an attempt is recorded before the post goes out; a draft with an earlier
    attempt is first looked for (by its marker) among pbp's own posts, so a crash or a
    timeout after the forum accepted a post never makes a second one."""
    book = DraftBook(game.file)
    done = []
    for row in book.unpublished():
        if row.status != APPROVED and row.kind in OPTIONAL_KINDS:
            continue  # a count the host only looked at, an opening post not wanted, hold nothing up
        if row.status != APPROVED:
            break
        if not ignore_wait and row.next_try and row.next_try > now():
            break
        settings = book.game_settings()
        post = _post_of(game, row, settings.get("thread"))
        found = _send(game, book, publisher, post, row, now, on_event)
        if found is None:
            break
        if found.thread and not settings.get("thread"):
            book.update_game_settings({"thread": found.thread})
        done.append(
            book.update(
                row.phase,
                {
                    "status": PUBLISHED,
                    "ref": found.ref,
                    "url": found.url,
                    "error": "",
                    "next_try": 0.0,
                },
            )
        )
        if row.kind != OPENING:
            book.withdraw_opening()
        on_event(f"{game.id} {row.phase}: published ({found.url})")
    return done


def _post_of(game: StoredGame, row: DraftRow, thread: str | None) -> Post:
    """The post of draft `row`, in its own dialect, with the marker that finds it again."""
    dialect = make_dialect(row.dialect)
    return Post(
        game=game.id,
        phase=row.phase,
        title=f"{game.id}: {row.title}",
        text=with_marker(row.text, row.marker, dialect),
        marker=row.marker,
        thread_title=f"{game.id}: {game.record.ruleset.capitalize()} game thread",
        thread=thread,
        dialect=dialect.name,
    )


def _send(
    game: StoredGame,
    book: DraftBook,
    publisher: Publisher,
    post: Post,
    row: DraftRow,
    now: Callable[[], float],
    on_event: Callable[[str], None],
) -> Published | None:
    """The post as the forum holds it: found among pbp's own posts after an earlier
    attempt, else published now; None when the forum refused it, its retry noted."""
    try:
        found = publisher.find(post) if row.attempts else None
        if found is None:
            book.update(row.phase, {"attempts": row.attempts + 1})
            found = publisher.publish(post)
            crash_point("forum-after-post")
    except TransientPublishError as error:
        attempts = max(row.attempts, 1)
        book.update(row.phase, {"error": str(error), "next_try": now() + RETRY.seconds(attempts)})
        on_event(f"{game.id} {row.phase}: will retry later: {error}")
        return None
    except PermanentPublishError as error:
        book.update(row.phase, {"error": str(error), "next_try": now() + RETRY.longest})
        on_event(f"{game.id} {row.phase}: not published: {error}")
        return None
    return found


def make_publisher(forum: ForumSettings) -> Publisher:
    """The configured publisher. A file publisher names each file by its post's own
    dialect (chosen per game); the global dialect is only the fallback."""
    if forum.publisher == "reddit":
        from pbp.forum.reddit import RedditPublisher  # praw is loaded only when used

        assert forum.reddit is not None  # load_forum_settings reads [reddit] for this publisher
        return RedditPublisher(forum.reddit)
    if forum.publisher == "discourse" and forum.discourse is not None:
        from pbp.forum.discourse import DiscourseForum  # requests is loaded only when used

        return DiscourseForum(forum.discourse)
    return FilePublisher(forum.posts_folder, make_dialect(forum.dialect).extension)


def held_behind(book: DraftBook) -> dict[str, str]:
    """For each unpublished draft that `publish_game` would not reach because an earlier
    one is not approved: the phase of that earlier draft (the one that holds it)."""
    holder, held = "", {}
    for row in book.unpublished():
        if holder:
            held[row.phase] = holder
        elif row.status != APPROVED and row.kind not in OPTIONAL_KINDS:
            holder = row.phase
    return held


@dataclass
class PublishedNow:
    """What `publish_now` did for one game."""

    posts: list[DraftRow]
    clock_started: datetime | None  # the new deadline, when the phase waited for a post
    waiting: DraftRow | None  # the draft not approved yet that holds the rest


def publish_now(
    moderator: Moderator,
    game_id: str,
    publisher: Publisher,
    on_event: Callable[[str], None] = lambda text: None,
) -> PublishedNow:
    """`pbp publish <game>` (and the desk's "publish now"): the game's approved posts at
    once, whatever a retry's wait, then the phase's clock if it waited for one of them
    (option wait_for_publish). Call with the writer lock."""
    game = load(moderator, game_id)
    posts = publish_game(game, publisher, ignore_wait=True, on_event=on_event)
    started = start_clock(moderator, game_id)
    return PublishedNow(posts, started, first_unapproved(load(moderator, game_id)))
