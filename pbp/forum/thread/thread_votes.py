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

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Mapping, Sequence

from engine.core import OrderError, RulesetCard, parse_on_off
from pbp.forum.thread.activity import day_of
from pbp.forum.thread.forum_names import LINK, Identities, account, link_claims, take_links
from pbp.forum.thread.mid_line import mentioned
from pbp.forum.thread.standing_votes import cast_time, public_since
from pbp.forum.thread.posts import ThreadPost
from pbp.forum.thread.thread_mail import not_counted_note, tell_player
from pbp.forum.thread.vote_lines import OrderLine, read_post
from pbp.forum.thread.watch_rules import PhaseFacts, facts_at
from pbp.game.clock import Running
from pbp.render.keyword_names import thread_words
from pbp.game.options import THREAD_RECEIPTS
from pbp.game.judging.order_lines import read_orders
from pbp.game.stored import StoredGame
from pbp.game.vote_channels import THREAD, public_keyword, takes_from_thread
from pbp.mail.limits import quoted
from pbp.moderator import Moderator
from pbp.render.verdicts import Accepted, Refused
from pbp.render.moments import render_received
from pbp.timezones import render_timestamp, to_text


@dataclass
class VoteRead:
    """What one read of a thread did: the votes stored, and notes for the host."""

    accepted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def order_words(card: RulesetCard, language: str = "en") -> dict[str, str]:
    """The words an order line of a post starts with, each with the English word it stands
    for: the public orders and the words that take them back, in English and in the
    thread's `language` (pbp.render.keyword_names), and LINK."""
    return {**thread_words(card, language), LINK: LINK}


def seen_posts(game: StoredGame) -> dict[str, Mapping[str, Any]]:
    """Each post as pbp last read it (its latest `thread_posts` row)."""
    return {row["post"]: row for row in game.file.thread_posts.each()}


@dataclass
class _Standing:
    """A player's accepted orders for the open phase as this read goes, and since when each
    public order has stood (read from the stored orders once per player and read)."""

    lines: list[str]
    since: dict[str, float]


@dataclass
class _Reading:
    moderator: Moderator
    game: StoredGame
    known: Identities
    timeline: Sequence[PhaseFacts]
    now: datetime
    result: VoteRead
    receipts: bool = False
    standings: dict[str, _Standing] = field(default_factory=dict)

    def standing(self, player: str) -> _Standing:
        if player not in self.standings:
            game, phase = self.game, self.game.open_phase.id
            since = {
                keyword: cast_time(row)
                for keyword in game.rules.card.public_orders
                if (row := public_since(game, phase, player, keyword)) is not None
            }
            self.standings[player] = _Standing(game.standing_lines(player), since)
        return self.standings[player]

    @property
    def deadline(self) -> float | None:
        clock = self.game.clock
        return clock.deadline.timestamp() if isinstance(clock, Running) and clock.deadline else None


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
    reading = _Reading(
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
    changed = [
        (post, seen.get(post.id))
        for post in sorted(posts, key=lambda post: post.created)
        if not _unchanged(post, seen.get(post.id))
    ]
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
            if before is not None and before.get("lines") and not before.get("deleted"):
                reading.result.notes.append(
                    f"{_where(post, before['author'])} was deleted; its vote stands "
                    "(an UNVOTE takes a vote back)."
                )
            _store(reading, post, before, before.get("lines", []) if before else [], deleted=True)
            continue
        lines, written = read[post.id]
        votes = [line for line in lines if line.keyword != LINK]
        kept = [line.text for line in _last_per_order(votes, game.rules.card)]
        _store(reading, post, before, kept, words=written)
        if takes and not votes and before is None:  # "I agree. **Nominate Bruno**"
            _mid_line(reading, post)
        if not takes or not votes or (before is not None and kept == before.get("lines")):
            continue
        _judge(reading, post, votes, edit=before is not None)
    return reading.result


def _unchanged(post: ThreadPost, before: Mapping[str, Any] | None) -> bool:
    return post.by_us or (
        before is not None
        and before["revision"] == post.revision
        and bool(before.get("deleted")) == post.deleted
    )


def _store(
    reading: _Reading,
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


def _where(post: ThreadPost, author: str = "") -> str:
    return f"the post by {quoted(author or post.author, 30)} ({post.url or post.id})"


def _judge(reading: _Reading, post: ThreadPost, votes: list[OrderLine], edit: bool) -> None:
    game, notes = reading.game, reading.result.notes
    moment = post.edited if (edit or post.edited is not None) else post.created
    player = reading.known.player_at(post.author, post.created if moment is None else moment)
    shown = quoted(votes[-1].written)
    if player is None:
        notes.append(
            f'{_where(post)} says "{shown}", but the account stands for no player of the game.'
        )
        return
    if moment is None:
        notes.append(
            f'{player}\'s {_where(post)[4:]} was edited to "{shown}"; the forum gives no time for '
            "the edit, so the edit is ignored."
        )
        return
    facts = facts_at(reading.timeline, moment)
    if facts is not None and player in facts.dead:
        notes.append(f'{player} is dead and posted "{shown}" ({post.url or post.id}); not counted.')
        return
    if facts is not None and player in facts.silenced:
        _refuse(reading, player, post, votes[-1], "silenced")
        return
    phase = game.open_phase
    words = game.rules.card.phase_words(phase.id)
    deadline = reading.deadline
    edited = edit or post.edited is not None
    if edited and post.created < game.opened.timestamp():
        notes.append(_late_edit(reading, player, post, shown, moment, _written_in(reading, post)))
        return
    if deadline is not None and moment >= deadline:
        if edited:
            notes.append(_late_edit(reading, player, post, shown, moment, words))
        else:
            _refuse(reading, player, post, votes[-1], "late")
        return
    if moment < game.opened.timestamp():
        _refuse(reading, player, post, votes[-1], "early")
        return
    for line in _last_per_order(votes, game.rules.card):
        _cast(reading, player, post, line, moment)


def _written_in(reading: _Reading, post: ThreadPost) -> str:
    """The phase, in words, that was open when the forum says `post` was created: the
    phase among whose posts the thread shows it (docs/design.md: Votes in the thread)."""
    facts = facts_at(reading.timeline, post.created)
    return (
        reading.game.rules.card.phase_words(facts.phase)
        if facts is not None
        else "an earlier phase"
    )


def _late_edit(
    reading: _Reading, player: str, post: ThreadPost, shown: str, moment: float, words: str
) -> str:
    """The host's line for an edit made after the deadline of the phase its post was
    written in (`words`): the edit's own time, which is the one judged."""
    when = render_timestamp(datetime.fromtimestamp(moment, tz=timezone.utc))
    return (
        f"{player} edited {_where(post)[4:]} at {when}, after the deadline of {words}, to"
        f' "{shown}"; the edit is ignored.'
    )


def _mid_line(reading: _Reading, post: ThreadPost) -> None:
    """A player's post with an order mid-line only (pbp.forum.thread.mid_line): noted, told with
    receipts."""
    said = mentioned(post.text, reading.game.rules.card.public_orders)
    player = reading.known.player_at(post.author, post.created) if said else None
    if player is not None:
        _refuse(
            reading, player, post, OrderLine(0, "", said, said), "mid_line", tell=reading.receipts
        )


def _last_per_order(votes: list[OrderLine], card: RulesetCard) -> list[OrderLine]:
    """The post's last line for each public order (a take-back word counts as its order)."""
    taken = dict(card.take_back_words)
    last: dict[str, OrderLine] = {}
    for line in votes:
        last[taken.get(line.keyword, line.keyword)] = line
    return sorted(last.values(), key=lambda line: line.number)


def _cast(reading: _Reading, player: str, post: ThreadPost, line: OrderLine, moment: float) -> None:
    """Read one order line of `player`'s post against their standing orders; store the
    result or refuse it."""
    game = reading.game
    phase, card = game.open_phase, game.rules.card
    keyword = dict(card.take_back_words).get(line.keyword, line.keyword)
    standing = reading.standing(player)
    since = standing.since.get(keyword)
    if since is not None and since > moment:
        reading.result.notes.append(
            f'{player}\'s "{quoted(line.written)}" ({post.url or post.id}) is older than '
            "the vote they sent by mail since; the mail's vote stands."
        )
        return
    words = card.phase_words(phase.id)
    offered = {spec.keyword for spec in phase.grammar.get(player, ())}
    if line.keyword != keyword and keyword not in offered:
        _refuse(
            reading,
            player,
            post,
            line,
            "nothing_to_take_back",
            take_back=line.keyword,
            keyword=keyword,
        )
        return
    text = f"WITHDRAW {keyword}" if line.keyword != keyword else line.text
    read = read_orders(
        game.rules, game.state, phase, player, [text], lambda: standing.lines, votes=THREAD
    )
    if read.errors:
        _refuse(reading, player, post, line, "bad_order", error=_sentence(read.errors[0]))
        return
    if line.keyword != keyword:
        lines = list(read.canonical)
    else:
        lines = [kept for kept in standing.lines if public_keyword(kept, card) != keyword] + list(
            read.canonical
        )
    game.file.orders.insert(
        {
            "phase": phase.id,
            "player": player,
            "text": "\n".join(lines),
            "received": to_text(reading.now),
            "message_id": "",
            "mail_key": "",
            "source": "thread",
            "post": post.id,
            "post_url": post.url,
            "cast_at": moment,
        }
    )
    standing.lines = lines
    standing.since[keyword] = moment
    reading.result.accepted.append(f"{player}: {line.text}")
    if reading.receipts:
        counted = Accepted(
            "thread_vote_counted",
            game_id=game.id,
            post=post.url or post.id,
            written=_when(game, player, moment),
            line=line.text,
            phase_words=words,
            lines=tuple(lines),
        )
        tell_player(reading.moderator, game, player, "thread-receipt", counted)


def _sentence(error: OrderError) -> str:
    return error.message.replace("{earlier}", str(error.earlier))


def _when(game: StoredGame, player: str, moment: float) -> str:
    return render_received(
        datetime.fromtimestamp(moment, tz=timezone.utc),
        game.zone_of(player),
        game.roster.language_of(player),
    )


def _refuse(
    reading: _Reading,
    player: str,
    post: ThreadPost,
    line: OrderLine,
    reason: str,
    tell: bool = True,
    **why: str,
) -> None:
    """List for the host, and tell the player (unless `tell` is off), that their post's order
    was not counted and why (`reason`, a case of the macro thread_vote_not_counted)."""
    game = reading.game
    reading.result.notes.append(
        not_counted_note(
            player, _where(post)[4:], quoted(line.written), reason, why.get("error", "")
        )
    )
    if not tell:
        return
    refused = Refused(
        "thread_vote_not_counted",
        reason=reason,
        game_id=game.id,
        post=post.url or post.id,
        written=_when(game, player, post.edited or post.created),
        said=quoted(line.written),
        phase_words=game.rules.card.phase_words(game.phase.id) if game.phase else "",
        standing=tuple(game.standing_lines(player)) if game.phase else (),
        **why,
    )
    tell_player(reading.moderator, game, player, "thread-refusal", refused)
