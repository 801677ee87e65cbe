"""`pbp substitute` checks the newcomer like a roster row (docs/design.md, Command line: names
are 1-20 letters, digits, `_` or `-`, start with a letter, are unique ignoring case, and
are not a room, a floor letter or a grammar keyword; an address is on the roster once).
A refusal is one line on stderr and changes nothing: the game file stays byte for byte."""

from __future__ import annotations


import pytest

from pbp.cli import main
from pbp.storage.game_storage import game_tables

ROSTER = "name,email\n" + "".join(
    f"{n},{n.lower()}@example.org\n"
    for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid")
)


@pytest.fixture
def site(tmp_path, monkeypatch, capsys):
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
                "--npc",
                "Raiden:renegade:neutral",
                "--no-send",
            ]
        )
        == 0
    )
    assert main(["substitute", "inf1", "Chloe", "Carol", "carol@example.org", "--no-send"]) == 0
    capsys.readouterr()
    return tmp_path


def game_bytes(site) -> bytes:
    """The game's document and journal, as stored."""
    games = site / "data" / "games"
    return b"".join(
        path.read_bytes() for path in (games / "inf1.json", games / "inf1.journal") if path.exists()
    )


@pytest.mark.parametrize(
    "name, email, says",
    [
        ("9lives", "dora@example.org", "'9lives' is not a valid name: use 1-20 letters"),
        ("Dora*", "dora@example.org", "'Dora*' is not a valid name"),
        ("Twentyone_characters1", "dora@example.org", "is not a valid name"),  # 21
        ("A-1", "dora@example.org", "'A-1' reads as a room"),
        ("B", "dora@example.org", "'B' is a floor letter"),
        ("vote", "dora@example.org", "'vote' is an order keyword"),
        ("alice", "dora@example.org", "'alice' is already taken in game inf1 by 'Alice'"),
        ("RAIDEN", "dora@example.org", "'RAIDEN' is already taken in game inf1 by 'Raiden'"),
        (
            "carol",
            "dora@example.org",
            "'carol' is already taken in game inf1 by 'Carol'",
        ),  # plays Chloe now
        ("Dora", "ALICE@example.org", "alice@example.org is already on the roster of inf1"),
        ("Dora", "carol@example.org", "carol@example.org is already on the roster of inf1"),
        (
            "Dora",
            "bruno@example.org",
            "bruno@example.org is already on the roster of inf1",
        ),  # the leaver's own
    ],
)
def test_a_refused_newcomer_changes_nothing(site, capsys, name, email, says):
    before = game_bytes(site)
    assert main(["substitute", "inf1", "Bruno", name, email]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and err.startswith("pbp: ")
    assert game_bytes(site) == before


def test_an_acceptable_newcomer_is_taken(site, capsys):
    """The character handed over is not a clash: it keeps its name whoever plays it."""
    assert main(["substitute", "inf1", "Elena", "elena", "elena2@example.org", "--no-send"]) == 0
    assert main(["substitute", "inf1", "Bruno", "Dora_2", "Dora@Example.org", "--no-send"]) == 0
    record = game_tables(site / "data" / "games" / "inf1.json")["game"]["1"]
    entry = next(e for e in record["roster"] if e["name"] == "Bruno")
    assert (entry["played_by"], entry["email"]) == ("Dora_2", "dora@example.org")
