"""Conformance, part 5: the facility map in reports (docs/rules/infiltration.md: What a
report shows). A player's map draws what their arrival reports told them; the host's map
draws everything; the SVG is the same picture."""

from __future__ import annotations

from collections import Counter
import struct
import subprocess
import zlib
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine.infiltration.views import host_view
from engine.infiltration.drawing import text_map
from engine.infiltration.map_svg import svg_map

from tests.infiltration.scenario import RULES, bystanders, make_state, person, resolve
from tests.infiltration.test_secrecy_properties import draw_fact, games, observers
from tests.infiltration.twins import play_twins

SVG = "{http://www.w3.org/2000/svg}"


def walked_state():
    """Ann (a Sneaker, so guards leave her be) walks C-7 (turn 1, guard C arrives there too)
    then D-4 (turn 2), where Cy lies: the host removed him during turn 1."""
    state = make_state(
        person("Ann", "A-2", role="sneaker"),
        person("Cy", "D-4"),
        person("Rex", "B-2", team="red"),
        *bystanders(),
        step="movement",
        turn=1,
    )
    state = resolve(state, {"Ann": "MOVE C-7"}).state
    state = resolve(state).state
    state = RULES.host_kill(state, "Cy", "left the game").state
    return resolve(state, {"Ann": "MOVE D-4"}).state


ANN_GRID = """\
Facility map, turn 2: as Ann knows it
    1      2      3      4      5      6      7      8
A   ..     ..     ..     ..     ..     ..     ..     ..
B   ..     ..     ..     ..     ..     ..     ..     ..
C   ..     ..     ..     ..     ..     ..     LKg    ..
D   ..     ..     ..    @HI+    ..     ..     ..     ..
E   ..     ..     ..     ..     ..     ..     ..     ..
F   ..     ..     ..     ..     ..     ..     ..     ..
G   ..     ..     ..     ..     ..     ..     ..     ..
H   ..     ..     ..     ..     ..     ..     ..     ..
Features: HI History, LK Electronic lock.
Marks: @ your room, + corpse, g guard, .. not seen.
Corpses: D-4 Cy.
Guards: C-7 guard C (turn 1).
"""


def test_c163_a_players_map_shows_the_rooms_corpses_and_guards_their_reports_told():
    """What a report shows: the 8×8 grid marks the reader's room (@), each room they arrived
    in with the feature they found there, corpses they found (+) and guards they found (g,
    with the turn when it was not this one); every other room is unknown (..)."""
    assert text_map(RULES.view(walked_state(), "Ann")) == ANN_GRID


def test_c164_the_hosts_map_shows_everything():
    """What a report shows: the host's map has every room's feature and condition, every
    living character (*), corpse, guard and lock that holds."""
    state = make_state(
        person("Ann", "D-4"),
        person("Bo", "D-4"),
        *bystanders(),
        hacked=["A-1"],
        destroyed=["A-2"],
        dead_guards=["B"],
        locks={"D-4": 1},
    )
    grid = text_map(host_view(state)).splitlines()
    assert grid[0] == "Facility map, turn 1: everything (host)"
    assert grid[2].split()[:3] == ["A", "SEh", "PSx"]
    assert grid[3].split()[-1] == "HI+"  # guard B's corpse in B-8
    assert "*HI#" in grid[5]  # Ann and Bo in the locked D-4
    assert "People: D-4 Ann, Bo; G-1 Extra1; G-2 Extra2; G-3 Extra3; G-4 Extra4." in text_map(
        host_view(state)
    )
    assert "Locked: D-4." in text_map(host_view(state))


def test_c165_a_lock_shows_on_a_players_map_only_as_their_arrival_report_showed_it():
    """What a report shows: a lock holding the reader's room is marked (#) during the
    decision phase, as their arrival report told; nothing marks a lock elsewhere."""
    state = make_state(person("Ann", "D-4"), *bystanders(), locks={"D-4": 1, "A-1": 1})
    view = RULES.view(state, "Ann")
    assert view["map"]["locks"] == ["D-4"]
    assert "@HI#" in text_map(view)


# ---------------------------------------------------------------------- the SVG picture
def rooms_of(svg: str) -> dict[str, ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    return {
        group.get("data-room"): group
        for group in root.iter(f"{SVG}g")
        if group.get("class") == "room"
    }


def texts(element: ElementTree.Element, css_class: str) -> list[str]:
    return [t.text for t in element.iter(f"{SVG}text") if t.get("class") == css_class]


def test_the_svg_has_one_square_per_room_and_the_marks_of_the_grid():
    rooms = rooms_of(svg_map(RULES.view(walked_state(), "Ann")))
    assert len(rooms) == 64 and all(len(list(g.iter(f"{SVG}rect"))) == 1 for g in rooms.values())
    assert texts(rooms["D-4"], "position") == ["@"] and texts(rooms["D-4"], "marks") == ["+"]
    assert texts(rooms["C-7"], "marks") == ["g"]
    assert not any(
        texts(g, "marks") or texts(g, "position")
        for room, g in rooms.items()
        if room not in ("D-4", "C-7")
    )


def test_the_svg_escapes_names():
    """Names are a player's input; markup in them stays text."""
    state = make_state(person("Ann", "D-4"), *bystanders())
    view = host_view(state)
    view["map"]["people"]["D-4"] = ['<script>alert("x")</script>&']
    svg = svg_map(view)
    assert "<script>" not in svg
    root = ElementTree.fromstring(svg)
    assert any('<script>alert("x")</script>&' in (t.text or "") for t in root.iter(f"{SVG}text"))
    assert len(list(root.iter(f"{SVG}script"))) == 0


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB pixels of an 8-bit RGB or RGBA PNG, read with the stdlib
    (each row is un-filtered as the PNG specification says)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, colour_type = struct.unpack(">IIBB", data[16:26])
    assert depth == 8 and colour_type in (2, 6)
    channels = 4 if colour_type == 6 else 3
    position, compressed = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        if kind == b"IDAT":
            compressed += data[position + 8 : position + 8 + length]
        position += 12 + length
    raw, stride = zlib.decompress(compressed), width * channels
    previous, pixels = bytearray(stride), []
    for row in range(height):
        kind, line = (
            raw[row * (stride + 1)],
            bytearray(raw[row * (stride + 1) + 1 : (row + 1) * (stride + 1)]),
        )
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, up_left = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - up_left
                nearest = min(
                    (abs(guess - left), 0, left),
                    (abs(guess - up), 1, up),
                    (abs(guess - up_left), 2, up_left),
                )
                line[i] = (line[i] + nearest[2]) & 255
        pixels += [bytes(line[i : i + 3]) for i in range(0, stride, channels)]
        previous = line
    return width, height, pixels


def test_headless_chromium_draws_the_svg(tmp_path):
    svg = tmp_path / "map.svg"
    svg.write_text(svg_map(host_view(walked_state())), encoding="utf-8")
    png = tmp_path / "map.png"
    subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--screenshot={png}",
            "--window-size=800,800",
            svg.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    width, height, pixels = png_pixels(png)
    assert (width, height) == (800, 800)
    counts = Counter(pixels)
    assert counts[bytes.fromhex("ffffff")] < len(pixels) * 0.9, "the picture is blank"
    assert counts[bytes.fromhex("cfe8ff")] > 5 * 60 * 60  # six rooms with people, filled
    assert counts[bytes.fromhex("f4f4f4")] > 50 * 60 * 60  # the other rooms
    assert (
        sum(n for colour, n in counts.items() if max(colour) < 0x60) > 1000
    )  # dark text and lines


# ---------------------------------------------------------------------- secrecy
@pytest.mark.parametrize(
    "kind,pair",
    [("team", None), ("class", ("HACKER", "WARRIOR")), ("npc-team", ("green", "red"))],
    ids=["team", "class", "npc-team"],
)
def test_a_players_map_is_the_same_in_twin_games_that_differ_in_a_fact_they_must_not_know(
    kind, pair
):
    """Twin games (tests/infiltration/twins.py) differing in another character's team or
    class: every observer's text grid and SVG are the same in both, step by step, for as
    long as the twins' states differ only in that fact."""

    @settings(
        max_examples=12,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(game=games(1 if kind.startswith("npc") else 0), data=st.data())
    def check(game, data):
        fact = draw_fact(data, game, kind, pair)
        watching = observers(game, fact)
        for step in play_twins(game, fact):
            if (
                step.consequence
                or not step.public_same
                or "over" in (step.after[0].step, step.after[1].step)
            ):
                return
            for name in watching:
                views = step.view(0, name), step.view(1, name)
                assert views[0]["map"]["rooms"] or not step.after[0].characters[name].alive, name
                assert text_map(views[0]) == text_map(views[1]), (step.label, name, fact)
                assert svg_map(views[0]) == svg_map(views[1]), (step.label, name, fact)

    check()
