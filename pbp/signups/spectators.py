"""The host's view of a resolution, mailed to spectators (docs/design.md: Sign-ups
and spectators).

After each resolution, with the game's option `spectators` at `dead` or `all`, every dead
player (and with `all`, every confirmed watcher) gets one mail saying who gave which orders
and everything that happened, the private reports and the team channels' messages of the
phase included (what the Werewolf source grants the dead: "free to keep his eyes open at
night"); the first such mail to an address also lists every character's role. The mail is
queued in the resolution's own durable write, and it goes to nobody else: a living
player's mail is the same whether spectators exist or not, and whatever the channels say.
Spectators never write: a dead player's orders are refused by the order desk, and a
watcher is on no roster.
"""

from __future__ import annotations

from typing import Any

from pbp.conversations.channels import HOST, message_log
from pbp.game.options import spectators_mode, thread_language
from pbp.game.resolution import Resolved
from pbp.game.stored import StoredGame
from pbp.render.verdicts import Refused
from pbp.moderator import Moderator
from pbp.render.languages import language_problem, languages
from pbp.render.renderer import event_json

KIND = "spectator"
# The Message-ID sequence of a game's mail to spectators and would-be watchers, apart from the
# players' (pbp.storage.outbox_queue.OutboxQueue.queue): a player's mail reads the same with or
# without them.
OUTSIDE_SEQUENCE = (  # the game record's confirmed watcher addresses, in order of confirmation
    "spectator_sequence"
)


def spectators(game: StoredGame) -> list[tuple[str, str, bool]]:
    """(recipient name, address, is a watcher) for everyone who gets the spectators' mail of
    `game` as it stands now: the dead roster players, then (option `all`) the watchers."""
    mode = spectators_mode(game.record.moderator_options, game.rules.card)
    if mode == "off":
        return []
    dead = game.dead()
    found = [(player.name, player.email, False) for player in game.roster if player.name in dead]
    if mode == "all":
        players = {player.email for player in game.roster}
        found += [
            ("watcher", address, True) for address in game.record.watchers if address not in players
        ]
    return found


def queue_spectator_mail(moderator: Moderator, resolved: Resolved) -> None:
    """Queue the host's view of the resolved phase (its actors' typed orders, the engine's
    resolution) to every spectator of the game: an `after_resolution` listener (pbp.composition),
    so it runs inside the resolution's transaction."""
    after = resolved.after
    recipients = spectators(after)
    if not recipients:
        return
    resolved_phase = resolved.phase.id
    shown_orders = _shown_orders(resolved)
    private = _private_reports(resolved)
    talk = channel_messages(after, resolved_phase)
    roles = role_list(after)
    for name, address, watcher in recipients:
        first = not after.file.outbox.count_where(
            "address", address, lambda row: row["kind"] == KIND
        )
        mail = moderator.renderer_for(_language_of(after, name, address, watcher)).render(
            KIND,
            after.record.ruleset,
            game=after.game_facts(),
            spectator=name,
            watcher=watcher,
            resolved_phase=resolved_phase,
            orders=shown_orders,
            public_events=resolved.public,
            private_reports=private,
            channel_messages=talk,
            roles=roles if first else [],
            result=resolved.result,
            next_phase=after.phase.id if after.phase else "",
        )
        moderator.outbox.queue(
            after.file,
            phase=resolved_phase,
            recipient=name,
            address=address,
            kind=KIND,
            mail=mail,
            sequence_key=OUTSIDE_SEQUENCE,
        )


def _shown_orders(resolved: Resolved) -> list[dict[str, Any]]:
    """The actors' typed orders. An actor who gave no orders had nothing to do, or left it
    to the rules: not listed."""
    return [
        {"player": player, "lines": [str(order) for order in resolved.orders[player]]}
        for player in sorted(resolved.phase.actors)
        if resolved.orders.get(player)
    ]


def _private_reports(resolved: Resolved) -> list[dict[str, Any]]:
    """Each player's private events of the resolution, for those who had any."""
    return [
        {"player": player, "events": [event_json(e) for e in events]}
        for player, events in sorted(resolved.resolution.private.items())
        if events
    ]


def _language_of(game: StoredGame, name: str, address: str, watcher: bool) -> str:
    """A dead player reads their own language; a watcher the thread's (option language)."""
    return (
        game.record.watcher_languages.get(address) or thread_language(game.record.moderator_options)
        if watcher
        else game.roster.language_of(name)
    )


def channel_messages(game: StoredGame, phase: str) -> list[dict[str, Any]]:
    """The team channels' messages written in `phase`, oldest first (never the talk with
    the host, which stays between the host and that player)."""
    return [
        {"channel": row["channel"], "sender": row["sender"], "text": row["text"]}
        for row in message_log(game.file).all()
        if row["phase"] == phase and row["channel"] != HOST
    ]


def role_list(game: StoredGame) -> list[dict[str, Any]]:
    """Every character's role as the host knows it now, from its own status (the words the
    end post's role list shows), with NPCs and the dead marked."""
    npcs = set(game.record.npc_names)
    listed = []
    for name in game.record.characters:
        status = game.status(name)
        listed.append(
            {
                "name": name,
                "npc": name in npcs,
                "alive": status.alive,
                "words": list(status.revealed) or [status.label or "no role yet"],
            }
        )
    return listed


def watch_refusal(
    game: StoredGame, sender: str, watchers: list[str], language: str = ""
) -> Refused | None:
    """Why `sender` may not watch `game` (in `language`, when given), or None when they may."""
    game_id, mode = game.id, spectators_mode(game.record.moderator_options, game.rules.card)
    if game.roster.by_address(sender) is not None:
        return Refused("plays_here", game_id=game_id)
    if game.phase is None:
        return Refused("nothing_left_to_watch", game_id=game_id)
    if mode != "all":
        return Refused("no_watchers", game_id=game_id, mode=mode)
    if sender in watchers:
        return Refused("watching_already", game_id=game_id)
    if language and language_problem(language):
        return Refused(
            "watch_language_unknown", game_id=game_id, language=language, languages=languages()
        )
    return None
