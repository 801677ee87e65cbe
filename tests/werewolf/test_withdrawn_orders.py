"""Taking an order back by mail (docs/design.md: Order mail format — WITHDRAW; docs/rules/
werewolf.md: Orders): what remains is resolved, and a player left with none gets the rules'
default. The Witch's mistaken POISON, taken back, kills nobody and leaves her the potion."""

from __future__ import annotations

import pytest

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.host.orders import HOST, enter_orders
from pbp.mail.ingest.inbound import parse_inbound
from pbp.game.record_parts import RosterPlayer
from pbp.settings import Settings
from tests.fixtures.clocks import Clock
from tests.fixtures.harness import ToyModerator
from tests.desk.test_desk import mail

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROLES = "werewolf,werewolf,witch,seer,villager,villager,villager,villager"


def _role_of(game, role):
    return [name for name in NAMES if game.status(name).role == role]


def _block(game, name, *lines):
    return "\n".join(
        [
            f"BEGIN ORDERS {game.id} {game.phase.id}",
            f"TOKEN: {game.token(name)}",
            *lines,
            "END ORDERS",
        ]
    )


def test_a_witch_takes_back_her_poison_and_keeps_the_potion(moderator):
    roster = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
    game = create_game(
        moderator, "werewolf", roster, seed="w", options={"roles": ROLES}, game_id="ww1"
    )
    resolve_phase(moderator, "ww1")  # N0
    resolve_phase(moderator, "ww1")  # D1-nominate, nobody nominates: no trial
    game = load(moderator, "ww1")
    assert game.phase.id == "N1"
    (witch,) = _role_of(game, "witch")
    wolves = _role_of(game, "werewolf")
    victim = next(name for name in NAMES if name != witch and name not in wolves)
    with game.file.transaction():
        for wolf in wolves:
            enter_orders(moderator, game, wolf, [f"KILL {victim}"], mail_key=HOST)
    resolve_phase(moderator, "ww1")
    game = load(moderator, "ww1")
    assert game.phase.id == "N1-witch"
    poisoned = next(name for name in NAMES if name not in (witch, victim) and name not in wolves)
    desk = Desk(moderator)
    address = f"{witch.lower()}@example.org"
    sent = [
        mail(_block(game, witch, f"POISON {poisoned}"), sender=address, message_id="<p1@x>"),
        mail(_block(game, witch, "WITHDRAW POISON"), sender=address, message_id="<p2@x>"),
    ]
    for raw in sent:
        assert desk.receive(parse_inbound(raw, ("pbp@games.example",), 10**6)) == "processed"
    assert load(moderator, "ww1").latest_order("N1-witch", witch).text == ""
    resolve_phase(moderator, "ww1")
    after = load(moderator, "ww1")
    assert after.status(poisoned).alive and not after.status(victim).alive
    witch_state = dict(next(c for c in after.state.characters if c.name == witch).role_state)
    assert witch_state["poison_used"] is False
