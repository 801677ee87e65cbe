"""One message block judged (docs/design.md: Conversations): the same identity rules as
orders, then the channel. A refusal for a channel the sender is not in reads the same
whether or not such a channel exists in the game: it names only the sender's own channels."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Mapping

from pbp import schedule
from pbp.game.block_judge import identity_refusal
from pbp.conversations.channels import HOST, TEAM, channels_of, message_log
from pbp.conversations.picks import current_picks
from pbp.game.stored import StoredGame
from pbp.mail.limits import MAX_MESSAGE_CHARS, quoted
from pbp.ports import MessageBlock
from pbp.timezones import render_timestamp
from pbp.game.token_guard import TokenGuard


@dataclass(frozen=True)
class Delivery:
    """An accepted message, to be stored and relayed with the mail that brought it."""

    sender: str
    channel: str
    text: str
    received: str
    picks: str = ""  # the channel's current picks, as the sender's receipt shows them


@dataclass(frozen=True)
class MessageVerdict:
    accepted: bool
    text: str
    submission: bool = True  # False: a message form sent back with nothing written in it
    delivery: Delivery | None = None


def judge_message(game: StoredGame, name: str, games: list[str], guard: TokenGuard, block: MessageBlock,
                  now: datetime, daily_limit: int, pending_orders: Mapping[str, str] | None = None,
                  sent_in_mail: int = 0) -> MessageVerdict:
    """`pending_orders` are the sender's orders accepted from the same mail (their text), so
    a pack message sent with a KILL shows that KILL. `sent_in_mail` counts the messages of
    the same mail accepted before this one: they count against the daily cap as the
    stored ones do."""
    head = f"Your message to {quoted(block.channel, 30)}"
    refusal = identity_refusal(game, name, games, guard, block.game, block.token)
    if refusal:
        return MessageVerdict(False, f"{head} was not sent: {refusal}")
    if game.phase is None:
        return MessageVerdict(False, f"{head} was not sent: game {game.id} is over, so its channels are closed.")
    if block.speaker:
        return MessageVerdict(False, f"{head} was not sent: its BEGIN line names more than the game and the "
                                     f"channel. Write BEGIN MESSAGE {game.id} <channel> and nothing after it.")
    channel, why_not = _channel(game, name, block.channel)
    if why_not:
        return MessageVerdict(False, f"{head} was not sent: {why_not}")
    if not block.text.strip():
        return MessageVerdict(False, f"Your reply held the message form for {channel} with nothing written in "
                                     "it, so nothing was sent. Write your message inside the block, between "
                                     "the TOKEN line and END MESSAGE.", submission=False)
    if len(block.text) > MAX_MESSAGE_CHARS:
        return MessageVerdict(False, f"{head} was not sent: it is {len(block.text):,} characters long and a "
                                     f"message may hold at most {MAX_MESSAGE_CHARS:,}. Shorten it or split it "
                                     "into several messages.")
    day = now.date().isoformat()
    sent_today = sent_in_mail + message_log(game.file).count(
        lambda row: row["sender"] == name and row["received"][:10] == day)
    if sent_today >= daily_limit:
        return MessageVerdict(False, f"{head} was not sent: you have sent {sent_today:,} messages today, the "
                                     "most one player may send in a day; write again after 00:00 UTC.")
    received = schedule.to_text(now)
    where = "the host" if channel == HOST else f"the other living members of {channel}"
    lines = [f"Your message to {channel} was sent to {where} (received {render_timestamp(received)})."]
    picks = current_picks(game, channel, pending_orders) if channel != HOST else ""
    if picks:
        lines.append(picks)
    return MessageVerdict(True, "\n".join(lines), delivery=Delivery(name, channel, block.text, received, picks))


def _channel(game: StoredGame, name: str, asked: str) -> tuple[str, str]:
    """The channel a block names, or why the sender may not write to it (the end of a
    sentence). Every refusal is made from the sender's own facts and the name they wrote,
    never from the other channels of the game."""
    if asked == HOST:
        return HOST, ""
    status = game.status(name)
    if not status.alive:
        return "", ("the dead write to no team channel. You may still write to the host, with "
                    f"BEGIN MESSAGE {game.id} host.")
    own = channels_of(game, name)
    if asked == TEAM and len(own) > 1:
        return "", (f"you are in more than one channel ({', '.join(own)}), so \"team\" does not say which; "
                    f"name one of them on the BEGIN MESSAGE line.")
    channel = own[0] if asked == TEAM and own else asked
    if channel not in own:
        yours = f"yours: {', '.join(own)}, and host" if own else "you are in none, but you may write to host"
        return "", (f"you can write only to a channel you are in ({yours}). Copy the BEGIN MESSAGE line "
                    "from a message form at the end of a mail from pbp.")
    if status.silenced:
        return "", ("you are silenced for today, so you may not write to your team until the day is over. "
                    f"You may still write to the host, with BEGIN MESSAGE {game.id} host.")
    return channel, ""


def free_text_note(game_id: str) -> str:
    """The receipt's line for words a player wrote outside any block: nobody reads them."""
    return (f"Only blocks are read: the text you wrote around them was not. To ask the host of {game_id} "
            "something, mail HELP: the reply ends with a message block that goes to the host.")
