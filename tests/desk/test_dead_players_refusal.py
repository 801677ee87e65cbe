"""A dead player's mail (docs/design.md: Order mail format — each reply says exactly what
happened): the refusal says the dead give no orders, and does not end as if orders for
the phase were still to come ("you have no accepted orders for Night 0 yet")."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import load
from pbp.host.removal import modkill
from tests.desk.test_desk import mail, receive, replies
from pbp.daemon.outbox_sending import send_due

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")


def test_a_dead_players_refusal_does_not_wait_for_their_orders(moderator, sender):
    create_game(
        moderator,
        "werewolf",
        [RosterPlayer(n, f"{n.lower()}@example.org") for n in NAMES],
        seed="dead",
        game_id="ww1",
    )
    game = load(moderator, "ww1")
    victim = next(n for n in NAMES if game.rules.status(game.state, n).team == "village")
    modkill(moderator, "ww1", victim, "left the game")
    send_due(moderator.outbox, sender)
    sender.sent.clear()
    game = load(moderator, "ww1")
    assert game.phase is not None
    block = f"BEGIN ORDERS ww1 {game.phase.id}\nTOKEN: {game.record.tokens[victim]}\nVOTE Alice\nEND ORDERS"
    assert (
        receive(Desk(moderator), mail(block, sender=f"{victim} <{victim.lower()}@example.org>"))
        == "rejected"
    )
    (reply,) = replies(moderator, sender)
    text = " ".join(reply.get_content().split())
    assert "the dead give no orders" in text
    assert "Nothing from this mail was accepted." in text and "no accepted orders" not in text
