"""`pbp open-game`, `pbp start`, `pbp status` and `pbp substitute --next` as the host runs
them (docs/design.md: Command line, Sign-ups and spectators): a good command exits 0; a bad one exits 2
with one line on stderr and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.seat_names import player_names
from pbp.cli import main
from pbp.composition import ComposedModerator
from pbp.settings import load_settings
from pbp.storage.open_games import open_game
from tests.fixtures.harness import write_settings


class Host:
    def __init__(self, root: Path, capsys):
        self.root, self.capsys = root, capsys
        self.settings = root / "pbp.ini"
        write_settings(
            self.settings, {"pbp": {"data": root / "data", "from_address": "pbp@games.example"}}
        )

    def pbp(self, *arguments: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        code = main([arguments[0], "--settings", str(self.settings), *arguments[1:]])
        captured = self.capsys.readouterr()
        return code, captured.out, captured.err

    def refused(self, *arguments: str, says: str) -> None:
        before = sorted(p.read_bytes() for p in (self.root / "data").rglob("*.json"))
        code, _out, err = self.pbp(*arguments)
        assert code == 2 and err.count("\n") == 1 and says in err, err
        assert sorted(p.read_bytes() for p in (self.root / "data").rglob("*.json")) == before

    def sign_up(self, game_id: str, names) -> None:
        """Confirmed sign-ups written as the mail path writes them."""
        with ComposedModerator(load_settings(str(self.settings))) as moderator:
            signups = open_game(moderator.folder, game_id)
            entries = [
                {"name": n, "email": f"{n.lower()}@x.example", "joined": "2030-01-01T00:00:00Z"}
                for n in names
            ]
            with signups.file.transaction():
                signups.file.update_record({"entries": entries})


@pytest.fixture
def host(tmp_path, capsys):
    return Host(tmp_path, capsys)


def test_open_game_prints_the_announcement_and_refuses_bad_settings(host):
    code, out, _ = host.pbp(
        "open-game",
        "ww3",
        "--ruleset",
        "werewolf",
        "--players",
        "8..10",
        "--closes",
        "2099-01-01 18:00 UTC",
        "--option",
        "spectators=all",
        "--schedule",
        "default=12h",
    )
    assert code == 0
    assert (
        "Game ww3 (werewolf, 8 to 10 players) is open for sign-ups until Thu 1 Jan 2099, 18:00 UTC."
        in out
    )
    assert (
        "Sign-ups open: game ww3 (Werewolf)" in out
        and "    JOIN ww3 <name> TZ=<time zone> FORUM=<forum name>" in out
    )
    assert (
        "mail WATCH ww3" in out
        and "Deadlines: night 0: 12 hours; each day's nominations: 12 hours;" in out
    )
    assert "night0" not in out  # phase kinds in words, never their ids
    host.refused(
        "open-game",
        "ww3",
        "--ruleset",
        "werewolf",
        "--players",
        "8..10",
        "--closes",
        "3d",
        says="A game called 'ww3' exists already",
    )
    host.refused(
        "open-game",
        "ww4",
        "--ruleset",
        "werewolf",
        "--players",
        "ten",
        "--closes",
        "3d",
        says="--players 'ten' is not a range; write MIN..MAX",
    )
    host.refused(
        "open-game",
        "ww4",
        "--ruleset",
        "werewolf",
        "--players",
        "9..8",
        "--closes",
        "3d",
        says="MIN must be at least 1 and at most MAX",
    )
    host.refused(
        "open-game",
        "ww4",
        "--ruleset",
        "werewolf",
        "--players",
        "4..8",
        "--closes",
        "3d",
        says="Werewolf needs at least 8 players",
    )
    host.refused(
        "open-game",
        "ww4",
        "--ruleset",
        "werewolf",
        "--players",
        "8..9",
        "--closes",
        "2001-01-01 10:00 UTC",
        says="is in the past",
    )
    host.refused(
        "open-game",
        "ww4",
        "--ruleset",
        "werewolf",
        "--players",
        "8..9",
        "--closes",
        "3d",
        "--option",
        "spectators=friends",
        says="spectators takes off, dead or all",
    )
    host.refused(
        "open-game",
        "4ww",
        "--ruleset",
        "werewolf",
        "--players",
        "8..9",
        "--closes",
        "3d",
        says="use 1-20 letters",
    )


def test_status_lists_the_sign_ups_start_deals_the_roles_and_substitute_next_takes_the_first(host):
    assert (
        host.pbp(
            "open-game", "ww3", "--ruleset", "werewolf", "--players", "8..8", "--closes", "3d"
        )[0]
        == 0
    )
    host.refused("start", "ww3", says="Game ww3 has 0 confirmed sign-ups and needs at least 8")
    host.refused("start", "ww9", says="There is no game 'ww9' open for sign-ups")
    names = player_names(10)
    host.sign_up("ww3", names)
    code, out, _ = host.pbp("status", "ww3")
    assert f"signed up (8): {names[0]} <{names[0].lower()}@x.example>" in out
    assert f"substitutes' list (2): {names[8]} <" in out
    code, out, _ = host.pbp("start", "ww3", "--no-send")
    assert code == 0 and "Game ww3 (werewolf, 8 players) started; phase N0 ends" in out
    host.refused("start", "ww3", says="Game ww3 has started already")
    host.refused(
        "substitute", "ww3", names[0], says="Give either the newcomer's name and address or --next"
    )
    code, out, _ = host.pbp("substitute", "ww3", names[0], "--next", "--no-send")
    assert code == 0 and f"{names[8]} now plays {names[0]}" in out
    code, out, _ = host.pbp("status", "ww3")
    assert f"substitutes' list (1): {names[9]} <" in out
    assert (
        host.pbp(
            "new-game", "--ruleset", "werewolf", "--roster", str(_roster(host.root)), "--no-send"
        )[0]
        == 0
    )
    host.refused("substitute", "ww1", "Zed", "--next", says="Game ww1 was not opened for sign-ups")


def _roster(root: Path) -> Path:
    path = root / "roster.csv"
    path.write_text(
        "name,email\n" + "".join(f"{n},{n.lower()}@y.example\n" for n in player_names(8))
    )
    return path


def test_open_game_takes_npcs_and_a_dialect(host):
    code, out, _ = host.pbp(
        "open-game",
        "inf2",
        "--ruleset",
        "infiltration",
        "--players",
        "5..8",
        "--closes",
        "3d",
        "--npc",
        "Otacon:engineer:green",
        "--dialect",
        "bbcode",
    )
    assert code == 0 and "Also in the game, played by the host: Otacon." in out
    with ComposedModerator(load_settings(str(host.settings))) as moderator:
        record = open_game(moderator.folder, "inf2").record
    assert (record.npcs, record.dialect) == (
        ({"name": "Otacon", "class": "engineer", "team": "green"},),
        "bbcode",
    )
    host.refused(
        "open-game",
        "ww4",
        "--ruleset",
        "werewolf",
        "--players",
        "8..9",
        "--closes",
        "3d",
        "--npc",
        "Otacon:engineer:green",
        says="Werewolf has no NPCs; leave out --npc.",
    )
    host.refused(
        "open-game",
        "inf3",
        "--ruleset",
        "infiltration",
        "--players",
        "5..8",
        "--closes",
        "3d",
        "--npc",
        "Otacon:pilot:green",
        says="class must be one of",
    )


def test_draft_settings_sets_the_dialect_of_a_game_open_for_sign_ups(host):
    assert (
        host.pbp(
            "open-game", "ww3", "--ruleset", "werewolf", "--players", "8..8", "--closes", "3d"
        )[0]
        == 0
    )

    def draft(*arguments: str) -> tuple[int, str, str]:
        host.capsys.readouterr()
        code = main(["draft", *arguments, "--settings", str(host.settings)])
        captured = host.capsys.readouterr()
        return code, captured.out, captured.err

    code, out, _ = draft("settings", "ww3", "--dialect", "bbcode")
    assert (code, out) == (
        0,
        "Game ww3 (open for sign-ups): dialect bbcode; its posts are drafted in it from "
        "the start.\n",
    )
    code, _, err = draft("settings", "ww3", "--auto-publish", "on")
    assert code == 2 and "set --auto-publish once it has started" in err
    host.sign_up("ww3", player_names(8))
    assert host.pbp("start", "ww3", "--no-send")[0] == 0
    code, out, _ = draft("show", "ww3", "opening")
    assert code == 0 and "Draft opening (draft, bbcode)" in out
