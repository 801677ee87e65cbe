"""`pbp show <game> [--svg FILE]` (docs/design.md: The host's view): the host's whole map of
an Infiltration game, as the text grid and as an SVG picture; bad input gets one line."""
from __future__ import annotations

from xml.etree import ElementTree

from tests.host.test_cli_commands import Site


def test_show_prints_the_hosts_map_and_writes_the_svg(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    picture = tmp_path / "map.svg"
    assert site.pbp("show", "g1", "--svg", str(picture)) == 0
    out, err = site.output()
    lines = out.splitlines()
    assert lines[0] == "Facility map, turn 0: everything (host)" and not err
    assert [line[0] for line in lines[2:10]] == list("ABCDEFGH")
    assert ".." not in "".join(lines[2:10])          # the host knows every room
    assert out.count("*") >= 1 and "People: " in out and "Guards: " in out
    assert lines[-1] == f"The map is written to {picture}."
    rooms = [g for g in ElementTree.parse(picture).getroot().iter("{http://www.w3.org/2000/svg}g")
             if g.get("class") == "room"]
    assert len(rooms) == 64


def test_show_refuses_an_unknown_game_and_an_unwritable_file(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    site.refused("show", "nope", says="There is no game 'nope'")
    site.refused("show", "g1", "--svg", str(tmp_path / "missing" / "map.svg"),
                 says="Cannot write the map to")
    assert site.output()[0] == ""


def test_show_refuses_a_werewolf_game(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    roster = tmp_path / "werewolves.csv"
    names = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
    roster.write_text("name,email\n" + "".join(f"{name},{name.lower()}@example.org\n" for name in names))
    assert site.pbp("new-game", "--ruleset", "werewolf", "--roster", str(roster), "--seed", "7", "--id", "w1",
                    "--no-send") == 0
    assert site.pbp("show", "w1") == 2
    assert site.output()[1] == "pbp: Game w1 is a werewolf game; pbp show draws the map of Infiltration games only.\n"
