"""Who receives a resolution's report (rules/infiltration.md: Cast and setup, NPCs;
Resolution §5, Reports): the host receives every NPC's report at the host address, as a
player receives their own; a dead player receives no report after the one that told them
of their death."""

from __future__ import annotations

import configparser
import hashlib

from pbp.cli import main
from pbp.desk import Desk
from pbp.mail.ingest.inbound import parse_inbound
from pbp.ports import RawMail
from pbp.game.stored import load
from pbp.game.resolution import NPC_REPORT
from pbp.composition import ComposedModerator
from pbp.settings import load_settings
from pbp.storage.host_token import host_token

ROSTER = "name,email\n" + "".join(
    f"{n},{n.lower()}@example.org\n"
    for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid")
)


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
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(tmp_path / "roster.csv"),
                "--npc",
                "Raiden:renegade:red",
                "--id",
                "inf1",
                "--seed",
                "7",
                "--no-send",
            ]
        )
        == 0
    )
    return settings


def outbox(settings):
    moderator = ComposedModerator(load_settings(str(settings)))
    return load(moderator, "inf1"), moderator.folder.game("inf1").outbox.all()


def test_the_host_receives_each_npcs_report_and_red_players_see_the_red_npc(
    tmp_path, monkeypatch, capsys
):
    settings = start_game(tmp_path, monkeypatch)
    assert main(["advance", "inf1"]) == 0
    game, rows = outbox(settings)
    npc_rows = [r for r in rows if r["kind"] == NPC_REPORT]
    assert [(r["recipient"], r["address"], r["phase"]) for r in npc_rows] == [
        ("Raiden", "host@example.org", "T0-class")
    ]
    body = npc_rows[0]["body"]
    assert "Hello Raiden" in body and "You are an NPC, on the Red team" in body
    assert "occupied rooms" in body  # the Reds' occupancy report, for the Red NPC
    reds = [
        c["name"]
        for c in game.rules.to_json(game.state)["characters"]
        if c["team"] == "red" and not c["npc"]
    ]
    red_report = next(r for r in rows if r["kind"] == "report" and r["recipient"] == reds[0])
    assert "Raiden (an NPC)" in red_report["body"]
    assert not any(r["address"] == "host@example.org" and r["kind"] == "report" for r in rows)


def test_a_dead_player_gets_no_report_after_the_one_that_tells_of_their_death(
    tmp_path, monkeypatch, capsys
):
    settings = start_game(tmp_path, monkeypatch)
    assert main(["advance", "inf1"]) == 0  # T0-class
    assert main(["modkill", "inf1", "Alice", "left", "the", "game", "--no-send"]) == 0
    assert main(["advance", "inf1"]) == 0  # T1-movement
    _, rows = outbox(settings)
    reports = [(r["recipient"], r["phase"]) for r in rows if r["kind"] == "report"]
    # the host kill's own report tells Alice of her death; the resolution after it is silent
    alices = [r["body"] for r in rows if r["kind"] == "report" and r["recipient"] == "Alice"]
    assert len(alices) == 2 and "You died" in alices[1] and "You died" not in alices[0]
    assert ("Bruno", "T1-movement") in reports


def test_a_red_players_welcome_names_the_red_npc_as_an_npc(tmp_path, monkeypatch, capsys):
    """Rules: the Reds know each other from the start, NPCs among them; the welcome tells a
    Red player their fellow Reds from the player's own status, marking the host-run ones."""
    settings = start_game(tmp_path, monkeypatch)
    game, rows = outbox(settings)
    reds = sorted(
        c["name"]
        for c in game.rules.to_json(game.state)["characters"]
        if c["team"] == "red" and not c["npc"]
    )
    welcome = next(r for r in rows if r["kind"] == "welcome" and r["recipient"] == reds[0])
    fellows = ", ".join(sorted([*reds[1:], "Raiden (an NPC)"]))
    assert f"You know your fellow Reds: {fellows}." in welcome["body"]
    greens = [
        r
        for r in rows
        if r["kind"] == "welcome" and r["recipient"] not in reds and r["recipient"] != "Raiden"
    ]
    assert greens and not any("fellow" in r["body"] for r in greens)


def host_mail(body: str, key: str):
    """A real mail from the host's address, parsed by pbp's own mail parser."""
    data = (
        f"From: The Host <host@example.org>\nTo: moderator@pbp.example\nSubject: Re: [inf1] NPC\n"
        f"Message-ID: <{key}@host>\n\n{body}"
    ).encode()
    return parse_inbound(
        RawMail(key=key, data=data, sha256=hashlib.sha256(data).hexdigest()),
        ("moderator@pbp.example",),
        1_000_000,
    )


def test_the_hosts_npc_block_is_judged_like_a_players_and_refusals_change_nothing(
    tmp_path, monkeypatch, capsys
):
    """docs/design.md, The host's view: the host answers an NPC's form by mail with the
    host token; a block for another NPC, another phase or with bad orders is refused with
    the reason, and nothing is stored."""
    settings = start_game(tmp_path, monkeypatch)
    assert main(["advance", "inf1"]) == 0  # now T1-movement
    moderator = ComposedModerator(load_settings(str(settings)))
    with moderator:
        game = load(moderator, "inf1")
        with game.file.transaction():
            token = host_token(game.file)
        desk = Desk(moderator)
        cases = [
            ("T1-movement", "Snake", "MOVE A-1", "inf1 has no NPC 'Snake' (its NPCs: Raiden)"),
            (
                "T0-class",
                "Raiden",
                "MOVE A-1",
                "the phase is not open; the current phase is T1-movement",
            ),
            ("T1-movement", "Raiden", "MOVE Z-9", 'Line 4: "MOVE Z-9"'),
        ]
        for number, (phase, npc, orders, said) in enumerate(cases):
            block = f"BEGIN ORDERS inf1 {phase}\nTOKEN: {token}\nNPC: {npc}\n{orders}\nEND ORDERS\n"
            assert desk.receive(host_mail(block, f"npc:{number}")) == "rejected"
            reply = [
                r for r in load(moderator, "inf1").file.outbox.all() if r["kind"] == "npc-receipt"
            ][-1]
            assert reply["address"] == "host@example.org" and said in reply["body"], reply["body"]
        assert not load(moderator, "inf1").file.orders.all()
        block = f"BEGIN ORDERS inf1 t1-movement\nTOKEN: {token}\nnpc: raiden\nmove b4\nEND ORDERS\n"
        assert desk.receive(host_mail(block, "npc:ok")) == "processed"
        (row,) = load(moderator, "inf1").file.orders.all()
        assert (row["player"], row["phase"], row["text"]) == ("Raiden", "T1-movement", "MOVE B-4")


def test_a_host_block_without_its_npc_line_is_asked_which_npc_it_is_for(
    tmp_path, monkeypatch, capsys
):
    """docs/design.md, The host's view: a block with the host token and orders but no
    `NPC:` line is answered about NPCs (which one, naming the game's), not with the help
    for approving drafts; nothing is stored. A block that approves still approves."""
    settings = start_game(tmp_path, monkeypatch)
    assert main(["advance", "inf1"]) == 0  # now T1-movement
    with ComposedModerator(load_settings(str(settings))) as moderator:
        game = load(moderator, "inf1")
        with game.file.transaction():
            token = host_token(game.file)
        block = f"BEGIN ORDERS inf1 T1-movement\nTOKEN: {token}\nMOVE A-1\nEND ORDERS\n"
        assert Desk(moderator).receive(host_mail(block, "npc:unnamed")) == "rejected"
        game = load(moderator, "inf1")
        reply = [r for r in game.file.outbox.all() if r["address"] == "host@example.org"][-1]
        said = " ".join(reply["body"].split())
        assert (
            "The block for inf1 T1-movement carries the host token and orders, but no NPC: line, so nothing "
            "was accepted. Which NPC are they for? Add the line NPC: Raiden under the TOKEN line"
        ) in said
        assert "APPROVE" not in reply["body"] and not game.file.orders.all()
