"""The host commands as the host runs them: `pbp.cli.main([...])` on a stored Infiltration
game in a data folder (the embedded Maildir transport, so sending is real and local).
Each good command exits 0 and does its work; each bad input — an unknown game, an unknown
player, a bad duration or time, a time in the past — exits 2 with one line on stderr
(`pbp: …`, docs/design.md: Command line, "Errors are one clear line and a non-zero exit") and leaves the game
file byte-identical (docs/design.md: Bad input, "Bad input gets a clear error … and changes nothing")."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pbp.timezones import as_utc

from pbp.cli import main
from pbp.storage.game_storage import game_tables
from pbp.game.stored import load
from pbp.composition import ComposedModerator
from pbp.settings import load_settings
from tests.fixtures.harness import write_settings

PLAYERS = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid")


class Site:
    """A data folder with one game, `g1`, and the `pbp` command line pointed at it."""

    def __init__(self, root: Path, capsys, options: tuple[str, ...] = ()):
        self.root, self.capsys = root, capsys
        self.settings = root / "pbp.ini"
        write_settings(
            self.settings, {"pbp": {"data": root / "data", "from_address": "pbp@games.example"}}
        )
        roster = root / "roster.csv"
        roster.write_text(
            "name,email,timezone\n"
            + "".join(f"{name},{name.lower()}@example.org,Australia/Sydney\n" for name in PLAYERS)
        )
        option_args = [arg for option in options for arg in ("--option", option)]
        assert (
            self.pbp(
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(roster),
                "--seed",
                "7",
                "--id",
                "g1",
                *option_args,
            )
            == 0
        )
        self.game_file = root / "data" / "games" / "g1.json"

    def pbp(self, command: str, *arguments: str) -> int:
        self.capsys.readouterr()
        return main([command, "--settings", str(self.settings), *arguments])

    def output(self) -> tuple[str, str]:
        captured = self.capsys.readouterr()
        return captured.out, captured.err

    def record(self) -> dict:
        return next(iter(game_tables(self.game_file)["game"].values()))

    def orders(self) -> list[dict]:
        return self._table("orders")

    def outbox(self) -> list[dict]:
        return self._table("outbox")

    def _table(self, name: str) -> list[dict]:
        return list(game_tables(self.game_file).get(name, {}).values())

    def refused(self, command: str, *arguments: str, says: str) -> str:
        """Run a command that must fail: exit 2, one line `pbp: …` holding `says`, and
        the game file unchanged to the byte."""
        before = self.stored()
        assert self.pbp(command, *arguments) == 2
        out, err = self.output()
        assert err.count("\n") == 1 and err.startswith("pbp: ") and "Traceback" not in err, err
        assert says in err, err
        assert self.stored() == before
        return err

    def stored(self) -> bytes:
        """The game's document and journal, as stored."""
        journal = self.game_file.with_suffix(".journal")
        return self.game_file.read_bytes() + (journal.read_bytes() if journal.exists() else b"")


@pytest.fixture
def site(tmp_path, capsys):
    return Site(tmp_path, capsys)


def test_new_game_warns_of_a_ninja_in_a_small_werewolf_game(tmp_path, capsys):
    """rules/werewolf.md, Ninja: a host role list with a Ninja under 14 players is
    accepted with a warning."""
    site = Site(tmp_path, capsys)
    roster = tmp_path / "werewolves.csv"
    names = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
    roster.write_text(
        "name,email\n" + "".join(f"{name},{name.lower()}@example.org\n" for name in names)
    )
    roles = "roles=werewolf,werewolf,ninja,seer,villager,villager,villager,villager"
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
            "--option",
            roles,
            "--no-send",
        )
        == 0
    )
    out, _ = site.output()
    assert "started" in out and "Warning: The role list has a Ninja with 8 players" in out


def test_pause_and_resume(site):
    deadline = site.record()["deadline"]
    paused_at = datetime.now(timezone.utc)
    assert site.pbp("pause", "g1") == 0
    out, _ = site.output()
    assert out.startswith("Game g1 is paused with ") and "Mails sent: 6" in out
    assert site.record()["paused"] and site.record()["deadline"] == ""
    site.refused("pause", "g1", says="already paused")
    site.refused("extend", "g1", "2h", says="is paused; resume it first")
    assert site.pbp("resume", "g1", "--no-send") == 0
    paused_for = datetime.now(timezone.utc) - paused_at
    out, _ = site.output()
    assert out.startswith("Game g1 resumed; the deadline is ") and "Mails queued: 6" in out
    # the time left is kept: the deadline moves on by the pause (rounded up to the second)
    assert "paused" not in site.record()
    moved = as_utc(site.record()["deadline"]) - as_utc(deadline)
    assert timedelta(0) <= moved <= paused_for + timedelta(seconds=1)
    site.refused("resume", "g1", says="Game g1 is not paused.")
    site.refused("pause", "nosuch", says="There is no game 'nosuch'")
    site.refused("resume", "nosuch", says="There is no game 'nosuch'")


def test_extend(site):
    assert site.pbp("extend", "g1", "1d12h") == 0
    assert site.output()[0].startswith("Game g1: the deadline is now ")
    assert site.pbp("extend", "g1", "2031-06-01", "18:00", "Australia/Sydney") == 0
    assert site.record()["deadline"] == "2031-06-01T08:00:00+00:00"
    assert (
        "Game g1: the deadline is now Sun 1 Jun 2031, 08:00 UTC; a post for the thread is drafted."
        in site.output()[0]
    )
    site.refused("extend", "nosuch", "2h", says="There is no game 'nosuch'")
    site.refused("extend", "g1", "soon", says="'soon' is neither a duration")
    site.refused("extend", "g1", "0m", says="no time at all")
    site.refused("extend", "g1", "2031-06-01 18:00", says="has no time zone")
    site.refused(
        "extend", "g1", "2031-06-01 18:00 Mars/Olympus", says="Unknown time zone 'Mars/Olympus'"
    )
    site.refused("extend", "g1", "2020-01-01 00:00 UTC", says="is in the past")


def test_substitute(site):
    old_token = site.record()["tokens"]["Chloe"]
    assert (
        site.pbp(
            "substitute", "g1", "chloe", "Carol", "carol@example.org", "--timezone", "Europe/Berlin"
        )
        == 0
    )
    assert "Carol now plays Chloe; the old token no longer works" in site.output()[0]
    entry = next(e for e in site.record()["roster"] if e["name"] == "Chloe")
    assert (entry["email"], entry["played_by"], entry["timezone"]) == (
        "carol@example.org",
        "Carol",
        "Europe/Berlin",
    )
    assert site.record()["tokens"]["Chloe"] != old_token
    site.refused(
        "substitute",
        "nosuch",
        "Bruno",
        "Dora",
        "dora@example.org",
        says="There is no game 'nosuch'",
    )
    site.refused(
        "substitute",
        "g1",
        "Zed",
        "Dora",
        "dora@example.org",
        says="There is no player 'Zed' in game g1",
    )
    site.refused(
        "substitute", "g1", "Bruno", "Dora", "not-an-address", says="is not an email address"
    )
    site.refused(
        "substitute", "g1", "Bruno", "Dora", "carol@example.org", says="already on the roster"
    )
    site.refused(
        "substitute",
        "g1",
        "Bruno",
        "Dora",
        "dora@example.org",
        "--timezone",
        "Mars/Olympus",
        says="Unknown time zone 'Mars/Olympus'",
    )


def _actors(site) -> list[str]:
    with ComposedModerator(load_settings(str(site.settings))) as moderator:
        return list(load(moderator, "g1").phase.actors)


def test_submit(site, tmp_path):
    actor = _actors(site)[0]
    orders = tmp_path / "orders.txt"
    orders.write_text("BEGIN ORDERS g1 T0-class\nclass: warrior\nEND ORDERS\n")
    assert site.pbp("submit", "g1", actor.lower(), str(orders)) == 0
    assert f"Accepted for {actor}:\n  CLASS WARRIOR\n" in site.output()[0]
    assert [(row["player"], row["text"], row["mail_key"]) for row in site.orders()] == [
        (actor, "CLASS WARRIOR", "host")
    ]
    orders.write_text("CLASS PILOT\n")
    site.refused(
        "submit", "g1", actor, str(orders), says=f"The orders for {actor} were not accepted"
    )
    site.refused("submit", "nosuch", actor, str(orders), says="There is no game 'nosuch'")
    site.refused(
        "submit", "g1", "Zed", str(orders), says="There is no player or NPC 'Zed' in game g1"
    )
    site.refused(
        "submit", "g1", actor, str(tmp_path / "missing.txt"), says="Cannot read the orders file"
    )


def test_modkill(site):
    assert site.pbp("modkill", "g1", "Bruno", "left", "the", "game") == 0
    out, _ = site.output()
    assert out.startswith("Bruno is removed from game g1.") and "Mails sent: 6" in out
    assert [a for a in site.record()["host_actions"] if a["kind"] != "extend"][-1][
        "reason"
    ] == "left the game"
    site.refused(
        "modkill", "g1", "Bruno", "again", says="Bruno"
    )  # already dead: the engine refuses
    site.refused("modkill", "nosuch", "Alice", "rules", says="There is no game 'nosuch'")
    site.refused("modkill", "g1", "Zed", "rules", says="There is no player or NPC 'Zed' in game g1")
    site.refused("modkill", "g1", "Alice", " ", says="Give a reason")


def test_a_modkill_reason_with_braces_is_announced_as_written(site):
    assert site.pbp("modkill", "g1", "Bruno", "said {deadline} and {0}") == 0
    notices = [row["body"] for row in site.outbox() if row["kind"] == "notice"]
    assert len(notices) == len(PLAYERS) - 1 and all(
        "Reason: said {deadline} and {0}" in body for body in notices
    )
    # Bruno himself is told in his own last report
    (last,) = [
        row["body"]
        for row in site.outbox()
        if row["kind"] == "report" and row["recipient"] == "Bruno"
    ]
    assert "said {deadline} and {0}" in last


def test_resolve_when_all_in_resolves_on_the_last_submitted_order(tmp_path, capsys):
    site = Site(tmp_path, capsys, options=("resolve_when_all_in=on",))
    actors = _actors(site)
    orders = tmp_path / "orders.txt"
    orders.write_text("CLASS WARRIOR\n")
    for actor in actors[:-1]:
        assert site.pbp("submit", "g1", actor, str(orders), "--no-send") == 0
        assert "Every order is in" not in site.output()[0]
        assert site.record()["phase_id"] == "T0-class"
    assert site.pbp("submit", "g1", actors[-1], str(orders)) == 0
    out, _ = site.output()
    assert (
        "Every order is in (option resolve_when_all_in): T0-class is resolved; next phase: T1-movement."
        in out
    )
    assert site.record()["phase_id"] == "T1-movement" and site.record()["resolved"] == ["T0-class"]


def test_pbp_poll_resolves_at_once_when_the_mail_it_read_completes_the_orders(tmp_path, capsys):
    """resolve_when_all_in: the orders by mail that `pbp poll` reads complete the phase, and
    the same poll resolves it (as `pbp run` would), without waiting for the deadline."""
    from email.message import EmailMessage

    from pbp.mail.maildir import deliver

    site = Site(tmp_path, capsys, options=("resolve_when_all_in=on",))
    actors = _actors(site)
    orders = tmp_path / "orders.txt"
    orders.write_text("CLASS WARRIOR\n")
    for actor in actors[:-1]:
        assert site.pbp("submit", "g1", actor, str(orders), "--no-send") == 0
    last = actors[-1]
    mail = EmailMessage()
    mail["From"], mail["To"], mail["Subject"] = (
        f"{last.lower()}@example.org",
        "pbp@games.example",
        "orders",
    )
    mail["Message-ID"] = "<last-orders@example.org>"
    mail.set_content(
        f"BEGIN ORDERS g1 T0-class\nTOKEN: {site.record()['tokens'][last]}\nCLASS WARRIOR\nEND ORDERS\n"
    )
    deliver(tmp_path / "data" / "mail" / "inbox", bytes(mail))
    assert site.pbp("poll") == 0
    out, _ = site.output()
    assert (
        "Every order is in (option resolve_when_all_in): g1 T0-class is resolved; next phase: T1-movement."
        in out
    )
    assert site.record()["phase_id"] == "T1-movement"


def test_options_show_and_change_a_running_games_reminders(site):
    assert site.pbp("options", "g1") == 0
    assert site.output()[0] == (
        "Game g1 has: prod_below=off, reminders=on, resolve_when_all_in=off, spectators=off, "
        "tally_after_votes=off, tally_every=off, thread_receipts=off, votes=mail, "
        "wait_for_publish=off.\n"
    )
    assert site.pbp("options", "g1", "reminders=off") == 0
    assert site.output()[0] == (
        "Game g1 now has: prod_below=off, reminders=off, resolve_when_all_in=off, "
        "spectators=off, tally_after_votes=off, tally_every=off, thread_receipts=off, "
        "votes=mail, wait_for_publish=off.\n"
    )
    assert site.record()["moderator_options"]["reminders"] == "off"
    assert site.record()["host_actions"][-1]["options"] == {"reminders": "off"}
    site.refused("options", "g1", "reminders=soon", says="not a comma-separated list of durations")
    site.refused("options", "g1", "resolve_when_all_in=maybe", says="takes on or off")
    site.refused("options", "g1", "reds=3", says="'reds' cannot change in a running game")
    site.refused("options", "nosuch", "reminders=off", says="There is no game 'nosuch'")
