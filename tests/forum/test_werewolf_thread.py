"""A Werewolf game's public thread through the host's commands (docs/design.md: Public posts): `pbp draft tally`
in the middle of nominations and of a vote; a running count the host only looked at
never holds up the posts after it and is withdrawn when its phase resolves; a night
followed by the Witch's turn gets no post of its own ("nothing is published between
them", rules/werewolf.md Night); `pbp publish` names the draft it waits for."""

from __future__ import annotations

import configparser

import pytest

from pbp.cli import main
from pbp.storage.drafts import DraftBook, WITHDRAWN
from pbp.game.stored import load
from pbp.composition import ComposedModerator
from pbp.settings import load_settings

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROLES = "roles=werewolf,werewolf,seer,villager,villager,witch,bodyguard,villager"


@pytest.fixture
def village(tmp_path, monkeypatch, capsys):
    """A Werewolf game (files publisher) just past N0, in D1-nominate."""
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    config = configparser.ConfigParser(interpolation=None)
    config.read(settings)
    config["forum"]["posts"] = str(tmp_path / "posts")
    with open(settings, "w") as handle:
        config.write(handle)
    (tmp_path / "roster.csv").write_text(
        "name,email\n" + "".join(f"{n},{n.lower()}@example.org\n" for n in NAMES)
    )
    monkeypatch.setenv("PBP_SETTINGS", str(settings))
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
                "3",
                "--option",
                ROLES,
                "--no-send",
            ]
        )
        == 0
    )
    assert main(["advance", "ww1"]) == 0
    capsys.readouterr()
    return tmp_path


def orders(folder, **lines: str) -> None:
    """Accepted orders for the open phase, as the desk records them."""
    with ComposedModerator(load_settings(str(folder / "pbp.ini"))) as moderator:
        game = load(moderator, "ww1")
        with game.file.transaction():
            for player, text in lines.items():
                game.file.orders.insert(
                    {
                        "phase": game.phase.id,
                        "player": player,
                        "text": text,
                        "received": "2030-01-01T00:00:00+00:00",
                        "mail_key": "m",
                    }
                )


def drafts(folder) -> dict[str, dict]:
    with ComposedModerator(load_settings(str(folder / "pbp.ini"))) as moderator:
        return {row.phase: row for row in DraftBook(load(moderator, "ww1").file).all()}


def test_a_running_count_of_nominations_and_of_votes(village, capsys):
    orders(village, Alice="NOMINATE Bruno", Chloe="NOMINATE Bruno", Dmitri="NOMINATE Alice")
    assert main(["draft", "tally", "ww1"]) == 0
    out = capsys.readouterr().out
    assert "## Day 1 — nomination count" in out
    assert "* **Bruno**: 2 (Alice, Chloe)" in out and "* **Alice**: 1 (Dmitri)" in out
    assert "No nomination yet from: Bruno, Elena, Farid, Greta, Hiro" in out
    orders(village, **{n: "NOMINATE Bruno" for n in NAMES})
    assert main(["advance", "ww1"]) == 0  # one defendant: Bruno
    orders(village, Alice="VOTE Bruno", Bruno="VOTE NO LYNCH", Chloe="VOTE Bruno")
    capsys.readouterr()
    assert main(["draft", "tally", "ww1"]) == 0
    out = capsys.readouterr().out
    assert "## Day 1 — vote count" in out
    assert "* **Bruno**: 2 (Alice, Chloe)" in out and "* **NO LYNCH**: 1 (Bruno)" in out
    assert "No vote yet from: Dmitri, Elena, Farid, Greta, Hiro" in out


def test_an_unapproved_count_holds_nothing_up_and_is_withdrawn_when_its_phase_resolves(
    village, capsys
):
    orders(village, Alice="NOMINATE Bruno")
    assert main(["draft", "tally", "ww1"]) == 0
    assert main(["draft", "tally", "ww1"]) == 0  # a newer count replaces the first
    assert drafts(village)["D1-nominate/tally-1"].status == WITHDRAWN
    assert main(["draft", "approve", "ww1", "N0"]) == 0
    assert main(["publish"]) == 0
    assert (
        "Published 1 post(s)." in capsys.readouterr().out
    )  # the count the host only read waits for nothing
    assert main(["advance", "ww1"]) == 0
    assert drafts(village)["D1-nominate/tally-2"].status == WITHDRAWN
    capsys.readouterr()
    assert main(["draft", "approve", "ww1", "D1-nominate/tally-2"]) == 2
    assert "is out of date" in capsys.readouterr().err
    assert main(["draft", "approve", "ww1"]) == 0  # the oldest unpublished: D1-nominate itself
    assert main(["publish"]) == 0
    posts = sorted(p.name for p in (village / "posts" / "ww1").iterdir())
    assert posts == ["001-N0.md", "002-D1-nominate.md"]


def test_a_night_before_the_witchs_turn_gets_no_post(village, capsys):
    orders(village, **{n: "NOMINATE Bruno" for n in NAMES})
    assert main(["advance", "ww1"]) == 0
    assert main(["advance", "ww1"]) == 0  # D1-vote: nobody voted, no lynch
    assert main(["advance", "ww1"]) == 0  # N1: nothing is public yet
    assert main(["advance", "ww1"]) == 0  # N1-witch: dawn
    phases = list(drafts(village))
    assert "N1" not in phases and phases[-1] == "N1-witch"
    assert drafts(village)["N1-witch"].title == "Day 2 — a quiet night"


def test_publish_names_the_draft_it_waits_for(village, capsys):
    assert main(["publish"]) == 0
    out = capsys.readouterr().out
    assert "ww1 N0: not approved yet, so it and the posts after it wait" in out
    assert "`pbp draft approve ww1 N0`" in out and "Published 0 post(s)." in out
