"""The host's view of a resolution, mailed to spectators (docs/design.md: The dead and
spectators).

After each resolution, with the game's option `spectators` at `dead` or `all`, every dead
player (and with `all`, every confirmed watcher) gets one mail saying who gave which orders
and everything that happened, the private reports included. The mail is queued in the
resolution's own durable write, and it goes to nobody else: a living player's mail is the
same whether spectators exist or not. Spectators never write: a dead player's orders are
refused by the order desk, and a watcher is on no roster.
"""
from __future__ import annotations

from pbp.game.options import spectators_mode
from pbp.game.resolution import Resolved
from pbp.game.stored import StoredGame
from pbp.moderator import Moderator
from pbp.render.renderer import event_json

KIND = "spectator"
# The Message-ID sequence of a game's mail to spectators and would-be watchers, apart from
# the players' (pbp.storage.outbox_queue.OutboxQueue.queue): a player's mail reads the same with or without them.
OUTSIDE_SEQUENCE = "spectator_sequence"  # the game record's confirmed watcher addresses, in order of confirmation


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
        found += [("watcher", address, True) for address in game.record.watchers if address not in players]
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
    shown_orders = [{"player": player, "lines": [str(order) for order in resolved.orders.get(player, ())]}
                    for player in sorted(resolved.phase.actors)]
    private = [{"player": player, "events": [event_json(e) for e in events]}
               for player, events in sorted(resolved.resolution.private.items()) if events]
    for name, address, watcher in recipients:
        mail = moderator.renderer.render(
            KIND, after.record.ruleset, game=after.game_facts(), spectator=name, watcher=watcher,
            resolved_phase=resolved_phase, orders=shown_orders, public_events=resolved.public,
            private_reports=private, result=resolved.result, next_phase=after.phase.id if after.phase else "")
        moderator.outbox.queue(after.file, phase=resolved_phase, recipient=name, address=address,
                               kind=KIND, mail=mail, sequence_key=OUTSIDE_SEQUENCE)
