"""An accepted message stored in the game's log and queued in the outbox, one row per
recipient, in the same durable write as the mail that brought it (docs/design.md:
Conversations; Reliability rules — Outbox): a crash loses no message and a restart sends
each relay once, with its Message-ID. Relays come from pbp, signed with the sender's
character name (no player ever sees another's address), threaded per channel and phase
under one root Message-ID. A member who is an NPC is played by the host: their copy goes
to the host's address, with a block to answer as that NPC."""

from __future__ import annotations

import re
from typing import Any

from pbp.conversations.channels import HOST, is_npc, log_message, members
from pbp.conversations.judge import Delivery
from pbp.game.options import spectators_mode
from pbp.game.stored import StoredGame
from pbp.moderator import Moderator
from pbp.timezones import render_timestamp
from pbp.storage.host_token import host_token

KIND = "message"


def thread_id(game_id: str, thread: str, phase: str, domain: str) -> str:
    """The root Message-ID every mail of one channel (or one player's talk with the host)
    in one phase refers to, so mail clients show them as one thread."""
    return f"<pbp.{_safe(game_id)}.{_safe(thread)}.{_safe(phase)}.thread@{domain}>"


def _safe(text: str) -> str:
    """`text` with anything a Message-ID may not hold turned into `-`."""
    return re.sub(r"[^A-Za-z0-9_.-]", "-", text)


def deliver(
    moderator: Moderator, game: StoredGame, delivery: Delivery, cause: str = ""
) -> list[str]:
    """Store `delivery` and queue its relays (call inside the game's transaction). `cause`
    is the Message-ID of the mail that brought it, if any. Returns who it went to."""
    phase = game.filed_phase
    if delivery.channel == HOST:
        recipients = [HOST]
        thread = thread_id(game.id, f"host-{delivery.sender}", phase, moderator.outbox.domain)
    else:
        recipients = [m for m in members(game, delivery.channel) if m != delivery.sender]
        thread = thread_id(game.id, delivery.channel, phase, moderator.outbox.domain)
    _log_delivery(game, delivery, phase, recipients, cause)
    facts = dict(
        game=game.game_facts(),
        phase=phase,
        sender=delivery.sender,
        channel=delivery.channel,
        text=delivery.text,
        received=render_timestamp(delivery.received),
        picks=delivery.picks,
    )
    if delivery.channel == HOST:
        _to_host(
            moderator,
            game,
            "host_question",
            thread,
            facts,
            answer_as=delivery.sender,
            channel=delivery.sender,
        )
        return recipients
    npcs = [name for name in recipients if is_npc(game, name)]
    _queue_player_copies(
        moderator, game, [name for name in recipients if name not in npcs], thread, facts
    )
    if npcs and not is_npc(game, delivery.sender):  # the host wrote it as an NPC: no copy back
        for npc in npcs:
            _to_host(
                moderator,
                game,
                "channel_host_copy",
                thread,
                facts,
                answer_as=npc,
                channel=delivery.channel,
            )
    return recipients


def _log_delivery(
    game: StoredGame, delivery: Delivery, phase: str, recipients: list[str], cause: str
) -> None:
    """Store `delivery` in the game's message log, with who it went to and what brought it."""
    log_message(
        game.file,
        {
            "channel": delivery.channel,
            "phase": phase,
            "sender": delivery.sender,
            "player": delivery.sender,
            "text": delivery.text,
            "received": delivery.received,
            "recipients": recipients,
            "cause": cause,
        },
    )


def _queue_player_copies(
    moderator: Moderator, game: StoredGame, players: list[str], thread: str, facts: dict[str, Any]
) -> None:
    """Queue the channel message to each player of `players` (no NPC), in their language."""
    phase = facts["phase"]
    # The dead and watchers read the channels in their view of the phase (option spectators).
    watched = spectators_mode(game.record.moderator_options, game.rules.card) != "off"
    for name in players:
        mail = game.renderer_of(moderator, name).render(
            "channel_message",
            game.record.ruleset,
            player=name,
            form=game.form(name),
            watched=watched,
            **facts,
        )
        moderator.outbox.queue(
            game.file,
            phase=phase,
            recipient=name,
            address=game.roster.of(name).email,
            kind=KIND,
            mail=mail,
            in_reply_to=thread,
            references=[thread],
        )


def _to_host(
    moderator: Moderator,
    game: StoredGame,
    template: str,
    thread: str,
    facts: dict[str, Any],
    answer_as: str,
    channel: str,
) -> None:
    address = moderator.settings.host_address
    if not address:
        return  # kept in the log: `pbp channel` shows it to a host with no address set
    mail = moderator.host_renderer.render(
        template,
        game.record.ruleset,
        npc=answer_as,
        answer_channel=channel,
        host_token=host_token(game.file),
        **facts,
    )
    moderator.outbox.queue(
        game.file,
        phase=facts["phase"],
        recipient=HOST,
        address=address,
        kind=KIND,
        mail=mail,
        in_reply_to=thread,
        references=[thread],
    )
