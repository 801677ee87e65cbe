"""Judging the votes of one post of the game's thread (pbp.forum.thread.thread_votes;
docs/design.md: Votes in the thread): whose they are, whether they came in time, and each
order line read against the player's standing orders, then stored or refused with a note
for the host and, as the game's receipts say, a mail to the player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Sequence

from engine.core import OrderError, RulesetCard
from pbp.forum.thread.forum_names import Identities
from pbp.forum.thread.mid_line import mentioned
from pbp.forum.thread.posts import ThreadPost
from pbp.forum.thread.standing_votes import cast_time, public_since
from pbp.forum.thread.thread_mail import not_counted_note, tell_player
from pbp.forum.thread.vote_lines import OrderLine
from pbp.forum.thread.watch_rules import PhaseFacts, facts_at
from pbp.game.clock import Running
from pbp.game.judging.order_lines import read_orders
from pbp.game.stored import StoredGame
from pbp.game.vote_channels import THREAD, public_keyword
from pbp.mail.limits import quoted
from pbp.moderator import Moderator
from pbp.render.moments import render_received
from pbp.render.verdicts import Accepted, Refused
from pbp.timezones import render_timestamp, to_text


@dataclass
class VoteRead:
    """What one read of a thread did: the votes stored, and notes for the host."""

    accepted: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class Standing:
    """A player's accepted orders for the open phase as this read goes, and since when each
    public order has stood (read from the stored orders once per player and read)."""

    lines: list[str]
    since: dict[str, float]


@dataclass
class Reading:
    moderator: Moderator
    game: StoredGame
    known: Identities
    timeline: Sequence[PhaseFacts]
    now: datetime
    result: VoteRead
    receipts: bool = False
    standings: dict[str, Standing] = field(default_factory=dict)

    def standing(self, player: str) -> Standing:
        if player not in self.standings:
            game, phase = self.game, self.game.open_phase.id
            since = {
                keyword: cast_time(row)
                for keyword in game.rules.card.public_orders
                if (row := public_since(game, phase, player, keyword)) is not None
            }
            self.standings[player] = Standing(game.standing_lines(player), since)
        return self.standings[player]

    @property
    def deadline(self) -> float | None:
        clock = self.game.clock
        return clock.deadline.timestamp() if isinstance(clock, Running) and clock.deadline else None


def where(post: ThreadPost, author: str = "") -> str:
    return f"the post by {quoted(author or post.author, 30)} ({post.url or post.id})"


def judge_votes(reading: Reading, post: ThreadPost, votes: list[OrderLine], edit: bool) -> None:
    game, notes = reading.game, reading.result.notes
    moment = post.edited if (edit or post.edited is not None) else post.created
    player = reading.known.player_at(post.author, post.created if moment is None else moment)
    shown = quoted(votes[-1].written)
    if player is None:
        notes.append(
            f'{where(post)} says "{shown}", but the account stands for no player of the game.'
        )
        return
    if moment is None:
        notes.append(
            f'{player}\'s {where(post)[4:]} was edited to "{shown}"; the forum gives no time for '
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
    for line in last_per_order(votes, game.rules.card):
        _cast(reading, player, post, line, moment)


def _written_in(reading: Reading, post: ThreadPost) -> str:
    """The phase, in words, that was open when the forum says `post` was created: the
    phase among whose posts the thread shows it (docs/design.md: Votes in the thread)."""
    facts = facts_at(reading.timeline, post.created)
    return (
        reading.game.rules.card.phase_words(facts.phase)
        if facts is not None
        else "an earlier phase"
    )


def _late_edit(
    reading: Reading, player: str, post: ThreadPost, shown: str, moment: float, words: str
) -> str:
    """The host's line for an edit made after the deadline of the phase its post was
    written in (`words`): the edit's own time, which is the one judged."""
    when = render_timestamp(datetime.fromtimestamp(moment, tz=timezone.utc))
    return (
        f"{player} edited {where(post)[4:]} at {when}, after the deadline of {words}, to"
        f' "{shown}"; the edit is ignored.'
    )


def refuse_mid_line(reading: Reading, post: ThreadPost) -> None:
    """A player's post with an order mid-line only (pbp.forum.thread.mid_line): noted, told with
    receipts."""
    said = mentioned(post.text, reading.game.rules.card.public_orders)
    player = reading.known.player_at(post.author, post.created) if said else None
    if player is not None:
        _refuse(
            reading, player, post, OrderLine(0, "", said, said), "mid_line", tell=reading.receipts
        )


def last_per_order(votes: list[OrderLine], card: RulesetCard) -> list[OrderLine]:
    """The post's last line for each public order (a take-back word counts as its order)."""
    taken = dict(card.take_back_words)
    last: dict[str, OrderLine] = {}
    for line in votes:
        last[taken.get(line.keyword, line.keyword)] = line
    return sorted(last.values(), key=lambda line: line.number)


def _cast(reading: Reading, player: str, post: ThreadPost, line: OrderLine, moment: float) -> None:
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
        error = read.errors[0]
        _refuse(reading, player, post, line, "bad_order", error=_sentence(error), refused=error)
        return
    if line.keyword != keyword:
        lines = list(read.canonical)
    else:
        lines = [kept for kept in standing.lines if public_keyword(kept, card) != keyword] + list(
            read.canonical
        )
    _record(reading, player, post, line, moment, keyword, lines)


def _record(
    reading: Reading,
    player: str,
    post: ThreadPost,
    line: OrderLine,
    moment: float,
    keyword: str,
    lines: list[str],
) -> None:
    """Store `player`'s orders as `post`'s `line` leaves them (`lines`), cast at `moment`,
    and send a receipt when the game's thread receipts are on."""
    game = reading.game
    phase = game.open_phase
    words = game.rules.card.phase_words(phase.id)
    standing = reading.standing(player)
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
    reading: Reading,
    player: str,
    post: ThreadPost,
    line: OrderLine,
    reason: str,
    tell: bool = True,
    **why: Any,
) -> None:
    """List for the host, and tell the player (unless `tell` is off), that their post's order
    was not counted and why (`reason`, a case of the macro thread_vote_not_counted)."""
    game = reading.game
    reading.result.notes.append(
        not_counted_note(
            player, where(post)[4:], quoted(line.written), reason, why.get("error", "")
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
