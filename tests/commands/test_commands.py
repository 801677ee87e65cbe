"""The host's commands end to end on the embedded Maildir transport, and the demo."""

from __future__ import annotations

import pytest

from pbp.cli import main
from pbp.demo import play_demo


@pytest.mark.parametrize(
    "ruleset, players, seed", [("infiltration", 5, "8"), ("werewolf", 8, "14")]
)
def test_the_demo_plays_a_game_to_a_result(tmp_path, ruleset, players, seed):
    lines = []
    outcome = play_demo(ruleset, players, seed=seed, data=tmp_path / "demo", say=lines.append)
    assert outcome.result and outcome.result["path"]
    assert any(line.startswith("\nThe ") and " win" in line.split("!")[0] for line in lines)
    assert outcome.phases >= 2 and outcome.mails_received > 0
    assert sum(line.startswith("\n== ") for line in lines) == outcome.phases


def test_the_werewolf_demo_pack_agrees_on_its_kill_in_the_pack_channel(tmp_path):
    """docs/design.md, Conversations: the scripted wolves write to the pack by mail (the
    first proposes its KILL, the others answer once its message reaches them), pbp relays
    it like any player's message, and the demo prints the pack's talk under its night."""
    lines = []
    play_demo("werewolf", seed="1", data=tmp_path / "demo", say=lines.append)
    night = lines.index("\n== Night 1 ==")
    talk = lines[night + 1 : night + 4]
    assert talk == [
        "  (pack, private) Farid: For Night 1, I say KILL Greta. Agreed?",
        "  (pack, private) Hiro: Agreed: KILL Greta.",
        "  (pack, private) Ingrid: Agreed: KILL Greta.",
    ]
    hiro = "".join(
        path.read_text()
        for path in (tmp_path / "demo" / "mail" / "hiro@players.invalid").glob("*/*")
    )
    assert "Farid wrote to pack" in hiro and "For Night 1, I say KILL Greta. Agreed?" in hiro


def test_init_new_game_status_advance_poll(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    assert (tmp_path / "pbp.ini").exists() and (tmp_path / "pbp-data" / "registry.json").exists()
    assert main(["init"]) == 2  # refuses to overwrite
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "name,email\n"
        + "".join(
            f"{n},{n.lower()}@example.org\n" for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
        )
    )
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(roster),
                "--seed",
                "8",
                "--schedule",
                "class=10m",
                "--npc",
                "Raiden:renegade:neutral",
            ]
        )
        == 0
    )
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


def test_status_tells_the_host_of_unanswered_mail(tmp_path, monkeypatch, capsys):
    """`pbp status` shows "mail from unknown senders, quarantined mail"; mail too
    big to download is refused unanswered and listed with its sender."""
    from email.message import EmailMessage

    from pbp.mail.maildir import deliver

    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    settings = tmp_path / "pbp.ini"
    settings.write_text(
        settings.read_text().replace("max_mail_size = 1000000", "max_mail_size = 5000")
    )
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "name,email\n"
        + "".join(
            f"{n},{n.lower()}@example.org\n" for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
        )
    )
    assert (
        main(["new-game", "--ruleset", "infiltration", "--roster", str(roster), "--id", "g1"]) == 0
    )
    for sender, body in (
        ("Mallory <mallory@elsewhere.example>", "BEGIN ORDERS g1 T0-class\n"),
        ("Alice <alice@example.org>", "x" * 6000),
    ):
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = sender, "pbp@localhost", "orders"
        message.set_content(body)
        deliver(tmp_path / "pbp-data" / "mail" / "inbox", message.as_bytes())
    capsys.readouterr()
    assert main(["poll"]) == 0
    assert "Mail sent: 0;" in capsys.readouterr().out  # neither mail is answered
    assert main(["status"]) == 0
    out = capsys.readouterr().out
    assert (
        "Mail from unknown senders (not answered): 1" in out and "mallory@elsewhere.example" in out
    )
    assert "Quarantined or too big (not answered): 1" in out
    assert "alice@example.org" in out and "over the size limit" in out


def test_a_reader_that_stops_early_gets_no_error_line(tmp_path):
    """`pbp status | head -1`: the closed pipe is not an error to report ("never a traceback")."""
    import subprocess
    import sys

    assert main(["init", "--settings", str(tmp_path / "pbp.ini")]) == 0
    process = subprocess.Popen(
        [sys.executable, "-m", "pbp", "status", "--settings", str(tmp_path / "pbp.ini")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdout.close()  # the reader is gone before pbp writes a line
    error = process.stderr.read()
    process.stderr.close()
    assert process.wait(timeout=60) == 1 and error == b""


def test_extra_werewolf_roles_named_in_the_settings_are_played(tmp_path, monkeypatch, capsys):
    """docs/design.md: Extensibility — "a host may add roles from Python modules that the
    settings file names … a game's options then use them like built-in roles (Vampire is
    the test case)". Without the module, the same game is refused in one line."""
    from pathlib import Path

    from pbp.storage.datafolder import DataFolder

    vampire = Path(__file__).resolve().parents[2] / "examples" / "roles" / "vampire.py"
    monkeypatch.chdir(tmp_path)
    assert main(["init"]) == 0
    names = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
    roster = tmp_path / "roster.csv"
    roster.write_text("name,email\n" + "".join(f"{n},{n.lower()}@example.org\n" for n in names))
    game = [
        "new-game",
        "--ruleset",
        "werewolf",
        "--roster",
        str(roster),
        "--seed",
        "3",
        "--id",
        "v1",
        "--option",
        "roles=vampire,werewolf,seer,villager,villager,villager,villager,villager",
    ]
    capsys.readouterr()
    assert main(game) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "vampire" in err.lower()
    settings = tmp_path / "pbp.ini"
    settings.write_text(settings.read_text().replace("\nmodules =\n", f"\nmodules = {vampire}\n"))
    assert main(game) == 0
    with DataFolder(tmp_path / "pbp-data", writer=False) as folder:
        record = folder.game("v1").record()
    assert '"vampire"' in str(record["state"]).replace("'", '"')
    assert main(["advance", "v1"]) == 0 and main(["advance", "v1"]) == 0
    assert "Resolved v1 D1-nominate." in capsys.readouterr().out
    settings.write_text(settings.read_text().replace(f"\nmodules = {vampire}\n", "\nmodules =\n"))
    assert main(["advance", "v1"]) == 2  # the module is gone: said in one line, nothing changed
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "game v1" in err and "[roles] modules" in err


def test_new_game_takes_the_hosts_map_file(tmp_path, monkeypatch, capsys):
    """Rules (Cast and setup): "A host may supply the map as a file instead." The game is
    played on exactly that map; a map that breaks the counts is refused in one line."""
    import engine
    from pbp.game.stored import load
    from pbp.composition import ComposedModerator
    from pbp.settings import load_settings

    monkeypatch.chdir(tmp_path)
    main(["init"])
    roster = tmp_path / "roster.csv"
    roster.write_text(
        "name,email\n"
        + "".join(
            f"{n},{n.lower()}@example.org\n" for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
        )
    )
    features = ["WEAPONS LAB", "GENERALS ROOM", "HANGAR", "GENERATOR", "GENERATOR", "COMMANDER"]
    features += [
        terminal
        for terminal in (
            "SEER",
            "PSYCHIC",
            "LOCATOR",
            "HISTORY",
            "MAPDATA",
            "SUPERLOCATOR",
            "MESSAGE",
            "GAS",
            "GUARD",
            "VALIDITY",
            "LOCK",
            "SWITCH",
        )
        for _ in range(4)
    ]
    features += ["SEER"] * (64 - len(features))
    rooms = [f"{floor}-{number}" for floor in "ABCDEFGH" for number in range(1, 9)]
    (tmp_path / "map.txt").write_text(
        "".join(f"{room} {feature}\n" for room, feature in zip(rooms, features))
    )
    assert (
        main(["new-game", "--ruleset", "infiltration", "--roster", str(roster), "--map", "map.txt"])
        == 0
    )
    game = load(ComposedModerator(load_settings("pbp.ini")), "inf1")
    layout = engine.ruleset("infiltration").to_json(game.state)["layout"]
    assert "A-1" in str(layout) and "WEAPONS LAB" in str(layout["A-1"])
    capsys.readouterr()

    (tmp_path / "bad-map.txt").write_text("A-1 SEER\n")
    assert (
        main(
            [
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(roster),
                "--map",
                "bad-map.txt",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err.count("\n") == 1
    assert (
        main(["new-game", "--ruleset", "werewolf", "--roster", str(roster), "--map", "map.txt"])
        == 2
    )
    assert "--map is for Infiltration" in capsys.readouterr().err


def test_the_demo_refuses_bad_input_in_one_line(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    for argv, reason in (
        (["demo", "--keep", str(tmp_path / "notes.txt")], "is a file, not a folder"),
        (["demo", "--keep", str(tmp_path)], "is not empty"),
        (["demo", "--players", "2"], "needs 5 to 48 players"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and reason in err
    assert (tmp_path / "notes.txt").read_text() == "mine"
