"""Who receives a resolution's report (rules/infiltration.md: Cast and setup, NPCs;
Resolution §5, Reports): the host receives every NPC's report at the host address, as a
player receives their own; a dead player receives no report after the one that told them
of their death."""
from __future__ import annotations

import configparser

from pbp.cli import main
from pbp.game.record import load
from pbp.game.resolution import NPC_REPORT
from pbp.composition import ForumModerator
from pbp.settings import load_settings

ROSTER = "name,email\n" + "".join(f"{n},{n.lower()}@example.org\n"
                                  for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid"))


def start_game(tmp_path, monkeypatch):
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", str(tmp_path / "data")]) == 0
    config = configparser.ConfigParser(interpolation=None)
    config.read(settings)
    config["forum"]["host_address"] = "host@example.org"
    with open(settings, "w") as handle:
        config.write(handle)
    (tmp_path / "roster.csv").write_text(ROSTER)
    monkeypatch.setenv("PBP_SETTINGS", str(settings))
    assert main(["new-game", "--ruleset", "infiltration", "--roster", str(tmp_path / "roster.csv"),
                 "--npc", "Raiden:renegade:red", "--id", "inf1", "--seed", "7", "--no-send"]) == 0
    return settings


def outbox(settings):
    moderator = ForumModerator(load_settings(str(settings)))
    return load(moderator, "inf1"), moderator.folder.game("inf1").outbox.all()


def test_the_host_receives_each_npcs_report_and_red_players_see_the_red_npc(tmp_path, monkeypatch, capsys):
    settings = start_game(tmp_path, monkeypatch)
    assert main(["advance", "inf1"]) == 0
    game, rows = outbox(settings)
    npc_rows = [r for r in rows if r["kind"] == NPC_REPORT]
    assert [(r["recipient"], r["address"], r["phase"]) for r in npc_rows] == [
        ("Raiden", "host@example.org", "T0-class")]
    body = npc_rows[0]["body"]
    assert "Hello Raiden" in body and "You are an NPC, on the Red team" in body
    assert "occupied rooms" in body   # the Reds' occupancy report, for the Red NPC
    reds = [c["name"] for c in game.rules.to_json(game.state)["characters"] if c["team"] == "red" and not c["npc"]]
    red_report = next(r for r in rows if r["kind"] == "report" and r["recipient"] == reds[0])
    assert "Raiden (an NPC)" in red_report["body"]
    assert not any(r["address"] == "host@example.org" and r["kind"] == "report" for r in rows)


def test_a_dead_player_gets_no_report_after_the_one_that_tells_of_their_death(tmp_path, monkeypatch, capsys):
    settings = start_game(tmp_path, monkeypatch)
    assert main(["advance", "inf1"]) == 0                      # T0-class
    assert main(["modkill", "inf1", "Alice", "left", "the", "game", "--no-send"]) == 0
    assert main(["advance", "inf1"]) == 0                      # T1-movement
    _, rows = outbox(settings)
    reports = [(r["recipient"], r["phase"]) for r in rows if r["kind"] == "report"]
    assert ("Alice", "T0-class") in reports and ("Alice", "T1-movement") not in reports
    assert ("Bruno", "T1-movement") in reports
