"""`pbp show <game> [character] [--svg FILE]` (docs/design.md: The host's view): every
character with its role or class and team, alive or dead and where, bonds, silences, what
its role has left and its last orders; the whole map of an Infiltration game as the text
grid and as an SVG picture; one character's facts, map and every report it was sent. Bad
input gets one line."""

from __future__ import annotations

from xml.etree import ElementTree

import engine

from tests.commands.test_cli_commands import PLAYERS, Site


def test_show_lists_every_character_and_prints_the_hosts_map_and_writes_the_svg(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    picture = tmp_path / "map.svg"
    assert site.pbp("show", "g1", "--svg", str(picture)) == 0
    out, err = site.output()
    lines = out.splitlines()
    assert (
        lines[0] == f"Game g1 (infiltration), phase T0-class; {len(PLAYERS)} characters:"
        and not err
    )
    rules = engine.ruleset("infiltration")
    state = rules.from_json(site.record()["state"])
    for name in PLAYERS:
        me = rules.view(state, name)["me"]
        assert (
            f"{name}: {me['team'].capitalize()} {me['class'].capitalize()}, alive, in {me['room']}"
            in lines
        )
    assert lines.count("    Last orders: none yet") == len(PLAYERS)
    start = lines.index("Facility map, turn 0: everything (host)")
    grid = lines[start + 2 : start + 10]
    assert [line[0] for line in grid] == list("ABCDEFGH")
    assert ".." not in "".join(grid)  # the host knows every room
    assert "People: " in out and "Guards: " in out
    assert lines[-1] == f"The map is written to {picture}."
    rooms = [
        g
        for g in ElementTree.parse(picture).getroot().iter("{http://www.w3.org/2000/svg}g")
        if g.get("class") == "room"
    ]
    assert len(rooms) == 64


def test_show_of_one_character_gives_its_facts_its_map_and_its_reports(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    rules = engine.ruleset("infiltration")
    state = rules.from_json(site.record()["state"])
    name = next(n for n in PLAYERS if rules.view(state, n)["me"]["team"] == "green")
    orders = tmp_path / "orders.txt"
    orders.write_text("CLASS HACKER\n")
    assert site.pbp("submit", "g1", name, str(orders), "--no-send") == 0
    assert site.pbp("advance", "g1") == 0
    assert site.pbp("show", "g1", name.lower()) == 0
    out = site.output()[0]
    assert out.startswith(f"{name}: Green Hacker, alive, in ")
    assert "    Last orders (T0-class): CLASS HACKER" in out
    assert f"Facility map, turn 1: as {name} knows it" in out
    assert "Reports so far (2):" in out
    assert "[g1] Welcome to Infiltration" in out and "[g1] Turn 0, class choice is over" in out
    assert (
        site.record()["tokens"][name] not in out and "END ORDERS" not in out
    )  # no form, no token on screen


def test_show_refuses_an_unknown_game_character_and_an_unwritable_file(tmp_path, capsys):
    site = Site(tmp_path, capsys)
    site.refused("show", "nope", says="There is no game 'nope'")
    site.refused("show", "g1", "Zed", says="There is no player or NPC 'Zed' in game g1")
    site.refused(
        "show", "g1", "--svg", str(tmp_path / "missing" / "map.svg"), says="Cannot write the map to"
    )


def werewolf_site(tmp_path, capsys) -> Site:
    site = Site(tmp_path, capsys)
    roster = tmp_path / "werewolves.csv"
    names = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
    roster.write_text(
        "name,email\n" + "".join(f"{name},{name.lower()}@example.org\n" for name in names)
    )
    assert (
        site.pbp(
            "new-game",
            "--ruleset",
            "werewolf",
            "--roster",
            str(roster),
            "--seed",
            "7",
            "--id",
            "w1",
            "--no-send",
        )
        == 0
    )
    return site


def test_show_of_a_werewolf_game_gives_roles_factions_bonds_and_what_roles_have_left(
    tmp_path, capsys
):
    site = werewolf_site(tmp_path, capsys)
    assert site.pbp("show", "w1") == 0
    out = site.output()[0]
    rules = engine.ruleset("werewolf")
    state = rules.from_json(json_state(site, "w1"))
    for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro"):
        me = rules.view(state, name)["me"]
        assert f"{name}: {me['role'].capitalize()} ({me['faction']}), alive" in out
        for team, mates in me["teams"].items():
            assert (f"Knows the {team}: {', '.join(mates)}" in out) == bool(mates)
        if me["role"] == "witch":
            assert "POISON: left; SAVE: left" in out
    assert "Facility map" not in out
    site.refused(
        "show",
        "w1",
        "--svg",
        str(tmp_path / "map.svg"),
        says="Game w1 is a werewolf game, whose rules draw no picture of a board; leave out --svg "
        "(only infiltration games have one).",
    )


def json_state(site: Site, game: str) -> dict:
    import json

    tables = json.loads((site.root / "data" / "games" / f"{game}.json").read_text(encoding="utf-8"))
    return next(iter(tables["game"].values()))["state"]


def test_show_says_who_plays_a_substituted_character_now_and_who_played_it_before(tmp_path, capsys):
    """docs/design.md, The host's view: a character handed to a substitute is shown with
    who plays it now, since when, and every earlier player."""
    site = werewolf_site(tmp_path, capsys)
    assert site.pbp("substitute", "w1", "Hiro", "Lena", "lena@example.org", "--no-send") == 0
    assert site.pbp("substitute", "w1", "Hiro", "Ingrid", "ingrid@example.org", "--no-send") == 0
    site.output()
    assert site.pbp("show", "w1", "Hiro") == 0
    out = site.output()[0]
    assert "    Played by Ingrid since Night 0; before: Hiro, then Lena." in out.splitlines()
    assert site.pbp("show", "w1") == 0
    out = site.output()[0]
    assert out.count("Played by") == 1
