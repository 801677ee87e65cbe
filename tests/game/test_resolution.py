"""Resolution at deadlines (docs/design.md: Reliability rules, Deadlines):
the resolved phase's id is stored with the new state in one write, so a phase is never
resolved twice; overdue deadlines are found from the game files."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import due_games, resolve_due, resolve_phase
from pbp.ports import InboundMail, OrderBlock
from tests.fixtures.harness import ROSTER


def order(game, player, text, key):
    return InboundMail(
        key=key,
        sha256=key,
        sender=f"{player.lower()}@example.org",
        message_id=f"<{key}@x>",
        subject="orders",
        blocks=(OrderBlock(game.id, "D1-vote", game.record.tokens[player], (text,)),),
    )


def test_a_phase_resolves_with_the_orders_in_and_only_once(moderator, clock):
    game = create_game(moderator, "ballot", ROSTER, seed="s", schedule_text="vote=1h")
    desk = Desk(moderator)
    desk.receive(order(game, "Alice", "VOTE Chloe", "1"))
    desk.receive(order(game, "Bruno", "VOTE Chloe", "2"))
    desk.receive(order(game, "Alice", "VOTE Bruno", "3"))  # replaces Alice's first vote
    assert due_games(moderator) == []
    clock.advance(hours=1)
    assert due_games(moderator) == [(game.id, "D1-vote")]
    (summary,) = resolve_due(moderator)
    assert summary.public == ("eliminated: player Bruno; votes 1",) or "Bruno" in summary.public[0]
    assert resolve_phase(moderator, game.id, "D1-vote") is None  # already resolved
    assert resolve_due(moderator) == []  # the next deadline is an hour away again
    record = load(moderator, game.id).record
    assert record.resolved == ("D1-vote",) and record.phase_id == "D2-vote"
    assert record.deadline == "2030-01-01T14:00:00+00:00"
    reports = [r for r in moderator.folder.game(game.id).outbox.all() if r["kind"] == "report"]
    assert len(reports) == len(ROSTER)


def test_a_game_plays_to_its_result_and_stops(moderator, clock):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    while resolve_phase(moderator, game.id):
        pass
    record = load(moderator, game.id).record
    assert record.to_json()["result"] == {
        "winners": ["Alice"],
        "path": "last-standing",
        "players": ["Alice"],
    }
    assert record.phase_id == "" and record.resolved == ("D1-vote", "D2-vote")
    final = [
        r
        for r in moderator.folder.game(game.id).outbox.all()
        if r["phase"] == "D2-vote" and r["kind"] == "report"
    ]
    assert all("The game is over. Winners: Alice" in r["body"] for r in final)


def test_orders_after_the_game_ends_are_refused_under_the_finished_game_not_a_phase_code(
    moderator, clock
):
    """A mail about a game that is over is answered in words: the subject names "the
    finished game", never the internal `over` it is filed under."""
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    while resolve_phase(moderator, game.id):
        pass
    outcome = Desk(moderator).receive(order(game, "Alice", "VOTE Bruno", "late"))
    assert outcome == "rejected"
    (receipt,) = [
        r for r in moderator.folder.game(game.id).outbox.all() if r["in_reply_to"] == "<late@x>"
    ]
    assert (
        receipt["subject"].endswith("for the finished game") and " over" not in receipt["subject"]
    )
