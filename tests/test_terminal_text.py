"""Player text on the host's terminal (docs/design.md: Hostile input — "Player text shown to
the host on a terminal has control characters made visible")."""

from __future__ import annotations

from pbp.cli import main
from pbp.composition import ComposedModerator
from pbp.settings import load_settings
from pbp.terminal import visible

ROSTER = "name,email\n" + "".join(
    f"{n},{n.lower()}@example.org\n" for n in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
)
ATTACK = "\x1b]0;pwned\x07\x1b[2J\rhidden\u202eevil\x85"


def test_control_characters_are_shown_as_escapes_and_layout_stays():
    assert visible(ATTACK) == "\\x1b]0;pwned\\x07\\x1b[2J\\rhidden\\u202eevil\\x85"
    assert visible("line one\n\tline two — ünïcode") == "line one\n\tline two — ünïcode"


def test_orders_and_status_show_player_text_with_visible_escapes(tmp_path, capsys):
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", "data"]) == 0
    (tmp_path / "roster.csv").write_text(ROSTER)
    assert (
        main(
            [
                "new-game",
                "--settings",
                str(settings),
                "--ruleset",
                "infiltration",
                "--seed",
                "3",
                "--roster",
                str(tmp_path / "roster.csv"),
                "--id",
                "g1",
                "--no-send",
            ]
        )
        == 0
    )
    with ComposedModerator(
        load_settings(str(settings))
    ) as moderator:  # what an older version stored, or an engine echo
        file = moderator.folder.game("g1")
        phase = file.record()["phase_id"]
        file.orders.insert(
            {
                "phase": phase,
                "player": "Alice",
                "text": f"MESSAGE {ATTACK}",
                "received": "2030-01-01T12:00:00+00:00",
                "message_id": "",
                "mail_key": "k",
            }
        )
        moderator.folder.mails.insert(
            {
                "key": "u1",
                "sha256": "s",
                "message_id": "",
                "sender": "x@example.net",
                "subject": ATTACK,
                "outcome": "rejected",
                "reason": "unknown sender",
                "received": "2030-01-01T12:00:00+00:00",
            }
        )
    capsys.readouterr()
    for command in (["orders", "g1"], ["status"]):
        assert main([command[0], "--settings", str(settings), *command[1:]]) == 0
        out = capsys.readouterr().out
        assert "\\x1b]0;pwned\\x07\\x1b[2J" in out and "hidden\\u202eevil" in out
        assert not any(char in out for char in "\x1b\x07\r\u202e\x85")


def test_advance_shows_an_anonymous_message_with_visible_escapes(tmp_path, capsys):
    """An anonymous message (player-written, published in the public summary) printed by
    `pbp advance` cannot clear the host's screen or retitle the window."""
    from tests.infiltration.scenario import RULES, bystanders, make_state, person, room_with

    state = make_state(
        person("Ann", room_with("MESSAGE")),
        person("Bob", "C-3"),
        person("Rex", "D-3", team="red"),
        *bystanders(),
        turn=1,
    )
    names = RULES.phase(state).actors
    settings = tmp_path / "pbp.ini"
    assert main(["init", "--settings", str(settings), "--data", "data"]) == 0
    (tmp_path / "roster.csv").write_text(
        "name,email\n" + "".join(f"{n},{n.lower()}@example.org\n" for n in names)
    )
    assert (
        main(
            [
                "new-game",
                "--settings",
                str(settings),
                "--ruleset",
                "infiltration",
                "--seed",
                "3",
                "--roster",
                str(tmp_path / "roster.csv"),
                "--id",
                "g1",
                "--no-send",
            ]
        )
        == 0
    )
    with ComposedModerator(
        load_settings(str(settings))
    ) as moderator:  # the game moved on to Ann at the terminal
        file = moderator.folder.game("g1")
        phase = RULES.phase(state).id
        file.update_record({"state": RULES.to_json(state), "phase_id": phase})
        file.orders.insert(
            {
                "phase": phase,
                "player": "Ann",
                "text": "USE MESSAGE meet me \x1b]0;pwned\x07\x1b[2J",
                "received": "2030-01-01T12:00:00+00:00",
                "message_id": "",
                "mail_key": "k",
            }
        )
    capsys.readouterr()
    assert main(["advance", "g1", "--settings", str(settings)]) == 0
    out = capsys.readouterr().out
    assert "meet me \\x1b]0;pwned\\x07\\x1b[2J" in out and "\x1b" not in out and "\x07" not in out
