"""Votes cast in the game's thread (docs/design.md: Votes in the thread; docs/rules/*.md).

With the option `votes` at `thread` or `both`, each read of the thread (pbp.forum.thread.watch)
turns the order lines of the players' posts (pbp.forum.thread.vote_lines) into stored orders,
read by the same engine parser and name matching as mail (pbp.game.judging.order_lines), each
row naming its post (`post`, `post_url`) and when it was cast (`cast_at`). The resolution reads
those rows as it reads mail's, so a replay reproduces the game.

- The author is a player only by a forum name the host wrote or confirmed by LINK.
- A vote counts at the time the forum says the post was created, only if that is while
  the phase is open and before its deadline. A post's votes count as first read: an edit
  that changes them is a new vote at the edit's time when the forum reports one before
  the deadline, and is otherwise ignored and listed for the host. A deleted post's vote
  stands; `UNVOTE` (the card's `take_back_words`) takes it back. Of two lines for one
  order, a post counts its last.
- Votes by accounts of no player, by the dead and by the silenced (who vote by mail, as
  the rules let them vote but not post) are not counted and are listed for the host.
- With `both`, a vote by mail stands against a thread vote cast before it.
- A post is read once: each read stores a row per new or changed post (`thread_posts`,
  its revision), so a read costs the posts that changed, however long the thread; a
  stranger's row keeps only id, revision and author, a player's its last line per order.
  An order mid-line is noted.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.core import RulesetCard, parse_on_off
from pbp.forum.thread.activity import day_of
from pbp.forum.thread.forum_names import LINK, Identities, account, link_claims, take_links
from pbp.forum.thread.posts import ThreadPost
from pbp.forum.thread.vote_casting import (
    Reading,
    VoteRead,
    judge_votes,
    last_per_order,
    refuse_mid_line,
    where,
)
from pbp.forum.thread.vote_lines import read_post
from pbp.forum.thread.watch_rules import PhaseFacts
from pbp.render.keyword_names import thread_words
from pbp.game.options import THREAD_RECEIPTS
from pbp.game.stored import StoredGame
from pbp.game.vote_channels import takes_from_thread
from pbp.moderator import Moderator


def order_words(card: RulesetCard, language: str = "en") -> dict[str, str]:
    """The words an order line of a post starts with, each with the English word it stands
    for: the public orders and the words that take them back, in English and in the
    thread's `language` (pbp.render.keyword_names), and LINK."""
    return {**thread_words(card, language), LINK: LINK}


def seen_posts(game: StoredGame) -> dict[str, Mapping[str, Any]]:
    """Each post as pbp last read it (its latest `thread_posts` row)."""
    return {row["post"]: row for row in game.file.thread_posts.each()}


def judge_posts(
    moderator: Moderator,
    game: StoredGame,
    posts: Sequence[ThreadPost],
    seen: Mapping[str, Mapping[str, Any]],
    known: Identities,
    timeline: Sequence[PhaseFacts],
) -> VoteRead:
    """Store a row for each new or changed post and the votes it casts (call inside the
    game's transaction)."""
    reading = Reading(
        moderator,
        game,
        known,
        timeline,
        moderator.clock(),
        VoteRead(),
        receipts=bool(parse_on_off(game.moderator_option(THREAD_RECEIPTS))),
    )
    words = order_words(game.rules.card, str(game.record.moderator_options.get("language") or "en"))
    takes = takes_from_thread(game.votes) and game.phase is not None
    changed = _changed_posts(posts, seen)
    read = {post.id: read_post(post.text, words) for post, _ in changed if not post.deleted}
    claims = [
        claim
        for post, before in changed
        if not post.deleted
        for claim in link_claims(post, before is None, read[post.id][0])
    ]
    reading.result.notes.extend(take_links(moderator, game, claims, known))
    for post, before in changed:
        if post.deleted:
            _store_deleted(reading, post, before)
            continue
        lines, written = read[post.id]
        votes = [line for line in lines if line.keyword != LINK]
        kept = [line.text for line in last_per_order(votes, game.rules.card)]
        _store(reading, post, before, kept, words=written)
        if takes and not votes and before is None:  # "I agree. **Nominate Bruno**"
            refuse_mid_line(reading, post)
        if not takes or not votes or (before is not None and kept == before.get("lines")):
            continue
        judge_votes(reading, post, votes, edit=before is not None)
    return reading.result


def _changed_posts(
    posts: Sequence[ThreadPost], seen: Mapping[str, Mapping[str, Any]]
) -> list[tuple[ThreadPost, Mapping[str, Any] | None]]:
    """The posts new or changed since pbp last read them, oldest first, each with its row
    as last read (None for a new one)."""
    return [
        (post, seen.get(post.id))
        for post in sorted(posts, key=lambda post: post.created)
        if not _unchanged(post, seen.get(post.id))
    ]


def _store_deleted(reading: Reading, post: ThreadPost, before: Mapping[str, Any] | None) -> None:
    """A deleted post's row; its vote stands, which the host is told once."""
    if before is not None and before.get("lines") and not before.get("deleted"):
        reading.result.notes.append(
            f"{where(post, before['author'])} was deleted; its vote stands "
            "(an UNVOTE takes a vote back)."
        )
    _store(reading, post, before, before.get("lines", []) if before else [], deleted=True)


def _unchanged(post: ThreadPost, before: Mapping[str, Any] | None) -> bool:
    return post.by_us or (
        before is not None
        and before["revision"] == post.revision
        and bool(before.get("deleted")) == post.deleted
    )


def _store(
    reading: Reading,
    post: ThreadPost,
    before: Mapping[str, Any] | None,
    lines: list[str],
    deleted: bool = False,
    words: int = 0,
) -> None:
    """The post as read now; its author, words and day are kept from its first read (see
    the module's docstring for a stranger's)."""
    game = reading.game
    if not reading.known.accounts.get(account(post.author)):
        row: dict[str, Any] = {
            "post": post.id,
            "revision": post.revision,
            "author": post.author,
            "deleted": deleted,
        }
    elif before is not None:
        row = {**before, "revision": post.revision, "lines": lines, "deleted": deleted}
    else:
        row = {
            "post": post.id,
            "revision": post.revision,
            "author": post.author,
            "created": post.created,
            "words": words,
            "lines": lines,
            "deleted": deleted,
            "day": day_of(reading.timeline, game.rules.card, post.created),
        }
    game.file.thread_posts.insert(row)
