"""`pbp status` (pbp.host.status): "no orders yet" names only the living actors who have
something to order and have not sent it (engine `Phase.grammar`: an empty grammar is
nothing to order, e.g. a Werewolf villager at night; the dead are no actors); and per game
the public thread: drafts waiting for the host's approval with their leak check, approved
posts waiting to go out, publishing failures, and what is published."""

from __future__ import annotations

import pytest

from pbp.cli import main
from pbp.forum.publishing import publish
from pbp.forum.publishing import review
from pbp.forum.publishing.publisher import TransientPublishError
from pbp.game.stored import load
from pbp.composition import ComposedModerator
from pbp.settings import load_settings
from pbp.host.status import status_text
from pbp.storage.datafolder import DataFolder

from tests.forum.conftest import stored

WEREWOLF_ROSTER = "name,email\n" + "".join(
    f"{n},{n.lower()}@example.org\n"
    for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hanna")
)


def status(capsys, game: str = "") -> list[str]:
    capsys.readouterr()
    assert main(["status", *([game] if game else [])]) == 0
    return capsys.readouterr().out.splitlines()


def line(lines: list[str], start: str) -> str:
    return next(text.strip() for text in lines if text.strip().startswith(start))


def listed(lines: list[str], start: str) -> list[str]:
    names = line(lines, start).split(":", 1)[1].strip()
    return [] if names == "none" else names.split(", ")


@pytest.fixture
def werewolf(tmp_path, monkeypatch, capsys):
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    monkeypatch.setenv("PBP_SETTINGS", str(settings))
    (tmp_path / "roster.csv").write_text(WEREWOLF_ROSTER)
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "werewolf",
                "--roster",
                str(tmp_path / "roster.csv"),
                "--id",
                "ww1",
                "--seed",
                "7",
                "--no-send",
            ]
        )
        == 0
    )
    capsys.readouterr()
    return tmp_path


def open_phase(folder):
    with ComposedModerator(load_settings(str(folder / "pbp.ini"))) as moderator:
        return load(moderator, "ww1").phase


def test_no_orders_yet_leaves_out_the_dead_and_those_with_nothing_to_order(werewolf, capsys):
    lines = status(capsys, "ww1")
    assert line(lines, "phase N0")  # a night where nobody orders anything
    assert listed(lines, "no orders yet") == []
    assert len(listed(lines, "nothing to order in this phase")) == 8

    assert main(["advance", "ww1"]) == 0
    assert listed(status(capsys, "ww1"), "no orders yet") == [
        "Alice",
        "Bruno",
        "Chloe",
        "Dmitri",
        "Elena",
        "Farid",
        "Greta",
        "Hanna",
    ]
    assert main(["modkill", "ww1", "Alice", "gone quiet", "--no-send"]) == 0
    assert "Alice" not in listed(status(capsys, "ww1"), "no orders yet")  # the dead are not awaited

    while not open_phase(werewolf).id.startswith("N"):  # on to the first real night
        assert main(["advance", "ww1"]) == 0
    phase = open_phase(werewolf)
    lines = status(capsys, "ww1")
    waiting, idle = listed(lines, "no orders yet"), listed(lines, "nothing to order in this phase")
    assert waiting and idle and "Alice" not in waiting + idle
    assert all(phase.grammar[name] for name in waiting)  # e.g. the wolves and the seer
    assert all(not phase.grammar[name] for name in idle)  # the villagers sleep
    assert sorted(waiting + idle) == sorted(phase.actors)


def test_a_player_who_sent_orders_is_no_longer_awaited(tmp_path, monkeypatch, capsys):
    # Infiltration's first phase: every player chooses a class.
    from tests.forum.conftest import ROSTER

    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    monkeypatch.setenv("PBP_SETTINGS", str(settings))
    (tmp_path / "roster.csv").write_text(ROSTER)
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(tmp_path / "roster.csv"),
                "--id",
                "inf1",
                "--seed",
                "7",
                "--no-send",
            ]
        )
        == 0
    )
    (tmp_path / "orders.txt").write_text("CLASS warrior\n")  # a class open to either team
    assert main(["submit", "inf1", "Alice", str(tmp_path / "orders.txt"), "--no-send"]) == 0
    lines = status(capsys, "inf1")
    assert listed(lines, "orders in") == ["Alice"]
    assert listed(lines, "no orders yet") == ["Bruno", "Chloe", "Dmitri", "Elena", "Farid"]


def test_drafts_their_leak_check_and_the_publish_state(host_game, capsys):
    lines = status(capsys, "inf1")
    assert line(lines, "public posts") == "public posts: 0 published"
    assert (
        line(lines, "draft T0-class") == "draft T0-class: waiting for approval; leak check passed"
    )

    moderator, game = stored(host_game)
    with moderator:  # the host's hand edit names a secret (a player's token)
        review.edit(game, "T0-class", f"Welcome all. {game.token('Bruno')}\n")
    assert line(status(capsys, "inf1"), "draft T0-class").startswith(
        "draft T0-class: waiting for approval, edited by the host; LEAK CHECK FAILED: "
    )
    assert main(["draft", "approve", "inf1", "T0-class", "--force"]) == 0

    class ForumDown:
        def find(self, post):
            raise TransientPublishError("503 Service Unavailable")

        def publish(self, post):
            raise TransientPublishError("503 Service Unavailable")

    moderator, game = stored(host_game)
    with moderator:
        assert (
            publish.publish_game(game, ForumDown(), now=lambda: 1_900_000_000.0) == []
        )  # retry in 60 s
    failed = line(status(capsys, "inf1"), "approved T0-class")
    assert failed == (
        "approved T0-class: PUBLISHING FAILED after 1 attempt(s): 503 Service Unavailable; "
        "next try 2030-03-17 17:47:40 UTC; approved with --force despite the leak check"
    )

    assert main(["publish"]) == 0
    lines = status(capsys)
    assert line(lines, "public posts") == "public posts: 1 published (last: T0-class)"
    assert not any(
        text.strip().startswith(("draft T0-class", "approved T0-class")) for text in lines
    )


def test_a_game_whose_state_cannot_be_read_is_reported_not_fatal(host_game):
    def no_engine(name):
        raise ValueError(f"no engine for {name}")

    folder = DataFolder(host_game / "data", writer=False)
    try:
        text = status_text(folder, "inf1", rules_for=no_engine)
    finally:
        folder.close()
    assert (
        "no orders yet: unknown (the game's state cannot be read: no engine for infiltration)"
        in text
    )
    assert "public posts: 0 published" in text


def test_an_approved_post_says_which_earlier_post_holds_it(werewolf, capsys):
    """docs/design.md, Public posts: posts go out in order, so an auto-approved running
    count waits for the host's earlier post; `pbp status` says which one it waits for."""
    assert main(["draft", "settings", "ww1", "--auto-publish", "tally"]) == 0
    assert main(["advance", "ww1"]) == 0  # N0's post: waiting for the host
    assert main(["draft", "tally", "ww1"]) == 0  # approved at once, and held
    lines = status(capsys, "ww1")
    assert line(lines, "draft N0") == "draft N0: waiting for approval; leak check passed"
    assert line(lines, "approved D1-nominate/tally-1") == (
        "approved D1-nominate/tally-1: held until N0 is approved (posts go out in order)"
    )
    assert main(["draft", "approve", "ww1", "N0"]) == 0
    assert line(status(capsys, "ww1"), "approved D1-nominate/tally-1") == (
        "approved D1-nominate/tally-1: waiting to be published (`pbp publish` or `pbp run`)"
    )
