"""A third ruleset is an engine-only task (docs/design.md: Engine contract, Extension
points): the toy Ballot ruleset, which the shell has never heard of, runs through the
whole shell from its card and its player status alone."""

from __future__ import annotations

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.settings import load_settings
from tests.fixtures.harness import ROSTER, ToyModerator, command_mail, order_mail, write_settings
from tests.fixtures.toy_ruleset import CARD


def _mail(rows, kind, recipient):
    (row,) = [r for r in rows if r["kind"] == kind and r["recipient"] == recipient][-1:]
    return row["body"]


def test_the_toy_ruleset_plays_a_whole_game_through_the_shell(tmp_path, clock):
    settings = write_settings(
        tmp_path / "pbp.ini",
        {
            "pbp": {"data": tmp_path / "data"},
            "forum": {"host_address": "host@example.org", "posts": tmp_path / "posts"},
        },
    )
    with ToyModerator(load_settings(str(settings)), clock=clock) as moderator:
        game = create_game(moderator, "ballot", ROSTER, seed="s1")
        assert game.id.startswith(CARD.game_id_prefix)  # the id prefix comes from the card
        welcome = str(_mail(game.file.outbox.all(), "welcome", "Alice"))
        assert "each day's vote" in welcome  # the schedule's words come from the card

        desk = Desk(moderator)
        desk.receive(
            order_mail("alice@example.org", game.id, "D1-vote", game.token("Alice"), "VOTE Dmitri")
        )
        desk.receive(command_mail("bruno@example.org", "HELP"))
        desk.receive(command_mail("chloe@example.org", "STATUS"))
        rows = load(moderator, game.id).file.outbox.all()
        assert "VOTE Dmitri" in str(_mail(rows, "receipt", "Alice"))
        assert "VOTE <player>" in str(_mail(rows, "help", "Bruno"))  # the card's order table
        assert _mail(rows, "status", "Chloe")

        resolve_phase(moderator, game.id)
        game = load(moderator, game.id)
        rows = game.file.outbox.all()
        assert {r["recipient"] for r in rows if r["kind"] == "report"} >= {
            "Alice",
            "Bruno",
            "Chloe",
            "Dmitri",
        }
        assert any(r["kind"] == "draft" for r in rows)
        assert not moderator.rules("ballot").status(game.state, "Dmitri").alive

        # A dead player's orders are refused in words the status gives the shell.
        desk.receive(
            order_mail(
                "dmitri@example.org", game.id, game.phase.id, game.token("Dmitri"), "VOTE Alice"
            )
        )
        refusal = [
            r for r in load(moderator, game.id).file.outbox.all() if r["recipient"] == "Dmitri"
        ][-1]
        assert "you are dead" in refusal["body"]

        resolve_phase(moderator, game.id)
        game = load(moderator, game.id)
        assert (
            game.phase is None
            and moderator.rules("ballot").result(game.state).path == "last-standing"
        )
