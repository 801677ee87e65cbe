"""A receipt for WITHDRAW that leaves the player without an order the rules fill in says
what the default is (engine.core.OrderSpec.default): after `WITHDRAW CLASS` in
Infiltration's Turn 0 the player reads that their class is Warrior."""

from __future__ import annotations

import pytest

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import load
from pbp.mail.ingest.inbound import parse_inbound
from pbp.settings import Settings
from tests.desk.test_desk import mail
from tests.fixtures.clocks import Clock
from tests.fixtures.harness import ToyModerator

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")


def test_withdraw_class_says_the_class_is_warrior(moderator):
    game = create_game(
        moderator,
        "infiltration",
        [RosterPlayer(n, f"{n.lower()}@example.org") for n in NAMES],
        seed="w",
        game_id="in1",
    )
    name = next(n for n in NAMES if "HACKER" in game.phase.grammar[n][0].choices)
    desk = Desk(moderator)
    bodies = []
    for number, line in enumerate(("CLASS HACKER", "WITHDRAW CLASS")):
        before = len(load(moderator, "in1").file.outbox.all())
        block = "\n".join(
            [f"BEGIN ORDERS in1 {game.phase.id}", f"TOKEN: {game.token(name)}", line, "END ORDERS"]
        )
        raw = mail(block, sender=f"{name.lower()}@example.org", message_id=f"<w{number}@x>")
        assert desk.receive(parse_inbound(raw, ("pbp@games.example",), 10**6)) == "processed"
        (row,) = [
            row
            for row in load(moderator, "in1").file.outbox.all()[before:]
            if row["kind"] == "receipt"
        ]
        bodies.append(" ".join(row["body"].split()))
    assert "Warrior" not in bodies[0].split("BEGIN ORDERS")[0]
    assert "Taken back for Turn 0" in bodies[1]
    assert "By the rules' default, your class is Warrior." in bodies[1]
