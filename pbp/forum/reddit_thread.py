"""A Reddit thread's comments as pbp reads them (docs/design.md: Public posts — the thread
watch, votes in the thread), through praw: every comment of the game's submission, the
"load more comments" stubs of a long thread fetched too (`/api/morechildren`, a hundred at
a time, as praw does), each with the times Reddit reports: `created_utc`, and `edited`
(false, or when the comment was last edited)."""

from __future__ import annotations

from typing import Any

from pbp.forum.thread.posts import ThreadPost, same_account

DELETED_BODIES = ("[deleted]", "[removed]")  # what Reddit shows of a deleted or removed comment


def submission_id(thread: str) -> str:
    """A submission's id from its fullname (`t3_abc` → `abc`)."""
    return thread.split("_", 1)[-1]


def thread_posts(reddit: Any, thread: str, me: str) -> list[ThreadPost]:
    """Every comment of the thread, oldest first; `me` is pbp's own account (its posts are
    marked `by_us`). praw's errors are the caller's to classify."""
    submission = reddit.submission(id=submission_id(thread))
    submission.comment_sort = "old"
    submission.comments.replace_more(limit=None)
    posts = [_post(comment, me) for comment in submission.comments.list()]
    return sorted(posts, key=lambda post: post.created)


def _post(comment: Any, me: str) -> ThreadPost:
    author = str(comment.author) if comment.author else ""
    edited = float(comment.edited) if comment.edited else None
    deleted = not author or comment.body in DELETED_BODIES
    return ThreadPost(
        id=comment.fullname,
        author=author,
        text=comment.body or "",
        created=float(comment.created_utc),
        edited=edited,
        revision=f"{edited or ''}{'/deleted' if deleted else ''}",
        deleted=deleted,
        url=f"https://reddit.com{comment.permalink}",
        by_us=bool(author) and same_account(author, me),
    )
