"""The host's commands end to end on the embedded Maildir transport, and the demo."""
from __future__ import annotations

import pytest

from pbp.cli import main
from pbp.demo import play_demo


@pytest.mark.parametrize("ruleset, players, seed", [("infiltration", 5, "8"), ("werewolf", 8, "14")])
def test_the_demo_plays_a_game_to_a_result(tmp_path, ruleset, players, seed):
    lines = []
    outcome = play_demo(ruleset, players, seed=seed, data=tmp_path / "demo", say=lines.append)
    assert outcome.result and outcome.result["path"]
    assert any(line.startswith("\nWinner: ") for line in lines)
    assert outcome.phases >= 2 and outcome.mails_received > 0
    assert sum(line.startswith("\n== ") for line in lines) == outcome.phases


def test_init_new_game_status_advance_poll(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    assert (tmp_path / "pbp.ini").exists() and (tmp_path / "pbp-data" / "registry.json").exists()
    assert main(["init"]) == 2  # refuses to overwrite
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\n" + "".join(f"{n},{n.lower()}@example.org\n"
                                               for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")))
    assert main(["new-game", "--ruleset", "infiltration", "--roster", str(roster), "--seed", "8",
                 "--schedule", "class=10m", "--npc", "Raiden:renegade:neutral"]) == 0
    assert "Game inf1 (infiltration, 5 players) started" in capsys.readouterr().out
    welcome = list((tmp_path / "pbp-data" / "mail" / "alice@example.org" / "new").iterdir())
    assert len(welcome) == 1 and b"BEGIN ORDERS inf1 T0-class" in welcome[0].read_bytes()
    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert "phase T0-class" in out and "no orders yet: Alice, Bruno, Chloe, Dmitri, Elena" in out
    assert main(["advance", "inf1"]) == 0
    assert "Resolved inf1 T0-class." in capsys.readouterr().out
    assert main(["poll"]) == 0
    assert main(["status", "inf1"]) == 0
    assert "phase T1-movement" in capsys.readouterr().out


def test_bad_roster_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    main(["init"])
    roster = tmp_path / "roster.csv"
    roster.write_text("Alice,a@example.org\nA-4,b@example.org\n")
    assert main(["new-game", "--ruleset", "werewolf", "--roster", str(roster)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "reads as a room" in err
