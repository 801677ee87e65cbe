"""One message block judged (docs/design.md: Conversations): the same identity rules as
orders, then the channel. A refusal for a channel the sender is not in reads the same
whether or not such a channel exists in the game: it names only the sender's own channels."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Mapping

from pbp.game.judging.block_judge import identity_refusal
from pbp.conversations.channels import HOST, TEAM, channels_of, sent_on
from pbp.conversations.picks import current_picks
from pbp.game.stored import StoredGame
from pbp.mail.limits import MAX_MESSAGE_CHARS
from pbp.ports import MessageBlock
from pbp.render.verdicts import Accepted, Note, Refused, Verdict
from pbp.timezones import render_timestamp, to_text
from pbp.game.judging.token_guard import TokenGuard


@dataclass(frozen=True)
class Delivery:
    """An accepted message, to be stored and relayed with the mail that brought it."""

    sender: str
    channel: str
    text: str
    received: str
    picks: Note | None = None  # the channel's current picks, as the sender's receipt shows them


@dataclass(frozen=True)
class MessageVerdict:
    """One message block judged: the verdict its receipt words (templates/mail/_verdicts.j2)
    and, accepted, the delivery it makes."""

    verdict: Verdict
    submission: bool = True  # False: a message form sent back with nothing written in it
    delivery: Delivery | None = None

    @property
    def accepted(self) -> bool:
        return isinstance(self.verdict, Accepted)


def judge_message(
    game: StoredGame,
    name: str,
    games: list[str],
    guard: TokenGuard,
    block: MessageBlock,
    now: datetime,
    daily_limit: int,
    pending_orders: Mapping[str, str] | None = None,
    sent_in_mail: int = 0,
) -> MessageVerdict:
    """`pending_orders` are the sender's orders accepted from the same mail (their text), so
    a pack message sent with a KILL shows that KILL. `sent_in_mail` counts the messages of
    the same mail accepted before this one: they count against the daily cap as the
    stored ones do."""
    about = {"block_game": block.game, "channel": block.channel}
    refused = identity_refusal(game, name, games, guard, block.token, about)
    if refused:
        return MessageVerdict(refused)
    if game.phase is None:
        return MessageVerdict(Refused("game_over", game_id=game.id, **about))
    if block.speaker:
        return MessageVerdict(Refused("extra_words", game_id=game.id, **about))
    channel, why_not = _channel(game, name, block.channel)
    if why_not:
        return MessageVerdict(
            Refused(why_not, game_id=game.id, own=tuple(channels_of(game, name)), **about)
        )
    if not block.text.strip():
        return MessageVerdict(
            Refused("empty_message", **{**about, "channel": channel}), submission=False
        )
    over = _over_a_limit(game, name, block.text, about, now, daily_limit, sent_in_mail)
    if over is not None:
        return MessageVerdict(over)
    received = to_text(now)
    picks = current_picks(game, channel, pending_orders) if channel != HOST else None
    return MessageVerdict(
        Accepted(
            "message_sent",
            channel=channel,
            to_host=channel == HOST,
            received=render_timestamp(received),
            picks=picks,
        ),
        delivery=Delivery(name, channel, block.text, received, picks),
    )


def _over_a_limit(
    game: StoredGame,
    name: str,
    text: str,
    about: dict[str, str],
    now: datetime,
    daily_limit: int,
    sent_in_mail: int,
) -> Refused | None:
    """The refusal of a message too long, or one past the sender's daily cap (the messages
    of the same mail accepted before it count as the stored ones do); None within both."""
    if len(text) > MAX_MESSAGE_CHARS:
        return Refused("message_too_long", length=len(text), limit=MAX_MESSAGE_CHARS, **about)
    day = now.date().isoformat()
    sent_today = sent_in_mail + sent_on(game.file, name, day)
    if sent_today >= daily_limit:
        return Refused("messages_today", sent_today=sent_today, **about)
    return None


def _channel(game: StoredGame, name: str, asked: str) -> tuple[str, str]:
    """The channel a block names, or the kind of refusal (templates/mail/_verdicts.j2) that
    says why the sender may not write to it. Every refusal is worded from the sender's own
    facts and the name they wrote, never from the other channels of the game."""
    if asked == HOST:
        return HOST, ""
    status = game.status(name)
    if not status.alive:
        return "", "dead_writer"
    own = channels_of(game, name)
    if asked == TEAM and len(own) > 1:
        return "", "which_team"
    channel = own[0] if asked == TEAM and own else asked
    if channel not in own:
        return "", "not_a_member"
    if status.silenced:
        return "", "silenced"
    return channel, ""


def free_text_note(game_id: str) -> Note:
    """The receipt's line for words a player wrote outside any block: nobody reads them."""
    return Note("free_text", game_id=game_id)
