"""What a scripted player of `pbp demo` reads and answers in its mailbox (docs/design.md:
Embedded default): the new mail moved to cur/, the filled-in form, and the word with its
team."""

from __future__ import annotations

import email
import os
from email import policy
from email.message import EmailMessage
from pathlib import Path

from pbp.conversations.channels import channels_of, members
from pbp.demo.players import filled_message_block, filled_reply_text, form_in, mail_text
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import StoredGame


def read_new_mail(
    folder: Path, game: StoredGame, entry: RosterPlayer, heard: set[tuple[str, str]]
) -> EmailMessage | None:
    """Move each new mail to cur/, noting the team channels heard from in the open phase;
    the last form for the open phase, if one came."""
    new = folder / "new"
    phase = game.phase
    chosen = None
    for path in sorted(new.iterdir()) if new.is_dir() else ():
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        os.replace(path, folder / "cur" / f"{path.name}:2,S")
        subject = str(message["Subject"])  # a relay's: `[ww1] pack, Night 1`
        if phase is not None:
            heard.update(
                (phase.id, channel)
                for channel in channels_of(game, entry.name)
                if subject.startswith(f"[{game.id}] {channel}, ")
            )
        form = form_in(mail_text(message))
        if form and phase is not None and form[1] == phase.id:
            chosen = message
    return chosen


def reply_body(
    game: StoredGame,
    name: str,
    phase_id: str,
    text: str,
    orders: str,
    talk: list[tuple[str, str, str, str]],
    quote: bool,
) -> str:
    """The filled-in form: the orders, then a message block per team channel, proposing
    the team's choice or agreeing with (or differing from) the first to speak."""
    body = filled_reply_text(text, orders, quote and not talk)
    for channel, line, first, first_line in talk:
        words = game.rules.card.phase_words(phase_id)
        said = (
            f"For {words}, I say {line}. Agreed?"
            if first == name
            else f"Agreed: {line}."
            if line == first_line
            else f"I would rather {line}."
        )
        body += "\n" + filled_message_block(text, channel, said)
    return body


def team_talk(
    game: StoredGame, name: str, orders: str, seed: str
) -> list[tuple[str, str, str, str]]:
    """(channel, `name`'s order line, the member who speaks first, that member's line) for
    each order `name` settles with a team (the card's `channel_orders`)."""
    talk = []
    for channel, keyword in game.rules.card.channel_orders:
        line = _order_line(orders, keyword)
        if channel not in channels_of(game, name) or line is None:
            continue
        picks = {
            member: _order_line(game.rules.scripted_orders(game.state, member, seed), keyword)
            for member in members(game, channel)
        }
        first = next(member for member, pick in picks.items() if pick)
        talk.append((channel, line, first, picks[first] or ""))
    return talk


def _order_line(orders: str, keyword: str) -> str | None:
    return next(
        (line.strip() for line in orders.splitlines() if line.split()[:1] == [keyword]), None
    )
