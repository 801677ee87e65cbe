"""A stored game is read once while its record is unchanged (pbp.game.stored.load): a batch
of order mails judges against one decoded state, and the views, statuses and forms it made
are made once. Any change to the record gives a fresh one, so no answer is ever built from
a record that has changed since."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.deadlines import extend
from pbp.game.stored import load
from tests.fixtures.harness import ROSTER
from tests.game.test_resolution import order


def test_the_same_stored_game_comes_back_while_its_record_is_unchanged(moderator):
    game = create_game(moderator, "ballot", ROSTER, seed="s", schedule_text="vote=1h")
    first = load(moderator, game.id)
    assert load(moderator, game.id) is first
    assert first.form("Alice") is first.form("Alice") and first.view("Alice") is first.view("Alice")
    Desk(moderator).receive(
        order(first, "Alice", "VOTE Chloe", "1")
    )  # orders live outside the record
    assert load(moderator, game.id) is first


def test_a_changed_record_gives_a_fresh_game_and_fresh_forms(moderator):
    game = create_game(moderator, "ballot", ROSTER, seed="s", schedule_text="vote=1h")
    first = load(moderator, game.id)
    deadline_before = first.form("Alice")["deadline"]
    extend(moderator, game.id, "2h")
    again = load(moderator, game.id)
    assert again is not first
    assert again.form("Alice")["deadline"] != deadline_before
    assert "14:00" in again.form("Alice")["deadline"] or "15:00" in again.form("Alice")["deadline"]


def test_a_receipt_after_the_deadline_moved_gives_the_new_deadline(moderator):
    game = create_game(moderator, "ballot", ROSTER, seed="s", schedule_text="vote=1h")
    desk = Desk(moderator)
    desk.receive(order(game, "Alice", "VOTE Chloe", "1"))
    new_deadline = extend(moderator, game.id, "2h")
    desk.receive(order(game, "Alice", "VOTE Bruno", "2"))
    receipts = [
        row for row in moderator.folder.game(game.id).outbox.all() if row["kind"] == "receipt"
    ]
    assert new_deadline.strftime("%H:%M") in receipts[-1]["body"]
    assert new_deadline.strftime("%H:%M") not in receipts[0]["body"]
