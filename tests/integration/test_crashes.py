"""Crash tests (docs/design.md: Reliability rules). A `pbp` process is killed
with SIGKILL (`PBP_CRASH_AT=<point>`, pbp.crashpoints) at each named point and started
again: no order is lost, none is processed twice, no phase is resolved twice, and each
mail is sent once — counted in the real Dovecot mailboxes."""

from __future__ import annotations

import signal
import time
from collections import Counter
from datetime import datetime, timezone

import pytest

from tests.fixtures.harness import Host, make_players, stop, wait_all_sent, write_roster
from tests.integration.players import ScriptedPlayer

pytestmark = pytest.mark.integration

RULESET, COUNT, SEED = "infiltration", 5, "8"


@pytest.fixture
def table(tmp_path, mail_server, smtp_server, make_player):
    """A game whose welcome mails are out, with its players; T0-class lasts `class_deadline`."""

    def setup(schedule: str = "default=1h"):
        host = Host(
            tmp_path, mail_server, smtp_server, mail_server.add_user(mail_server.new_address("pbp"))
        )
        host.write_settings()
        players = make_players(make_player, COUNT)
        host.pbp(
            "new-game",
            "--ruleset",
            RULESET,
            "--roster",
            str(write_roster(tmp_path, players)),
            "--seed",
            SEED,
            "--schedule",
            schedule,
            "--id",
            "g1",
        )
        scripted = [
            ScriptedPlayer(name, box, quote=i % 2 == 0) for i, (name, box) in enumerate(players)
        ]
        return host, players, scripted

    return setup


def send_orders(host, scripted) -> None:
    for player in scripted:
        player.step(host, "g1", RULESET, SEED)
    assert all(player.answered == {"T0-class"} for player in scripted)
    deadline = time.monotonic() + 10
    while host.dovecot.count(host.address, "INBOX") < COUNT:
        assert time.monotonic() < deadline, "the orders did not arrive"
        time.sleep(0.05)


def assert_each_delivered_once(host, players) -> list[dict]:
    rows = wait_all_sent(host, "g1")
    for name, box in players:
        delivered = Counter(m["Message-ID"] for m in host.dovecot.messages(box.address))
        expected = Counter(row["message_id"] for row in rows if row["recipient"] == name)
        assert delivered == expected, name
    return rows


def crashed(done) -> bool:
    return done.returncode == -signal.SIGKILL


@pytest.mark.parametrize("point", ["after-spool", "after-commit"])
def test_killed_while_reading_mail(table, point):
    host, players, scripted = table()
    send_orders(host, scripted)
    assert crashed(host.pbp("poll", env={"PBP_CRASH_AT": point}, check=False))
    host.pbp("poll")
    host.pbp("poll")
    orders = host.table("g1", "orders")
    assert sorted(row["player"] for row in orders) == sorted(name for name, _ in players)
    assert len({row["mail_key"] for row in orders}) == COUNT
    assert len(host.table("g1", "mails")) == COUNT
    assert host.dovecot.count(host.address, "INBOX") == 0
    assert host.dovecot.count(host.address, "processed") == COUNT
    rows = assert_each_delivered_once(host, players)
    assert Counter(row["kind"] for row in rows) == {"welcome": COUNT, "receipt": COUNT}


def test_killed_in_the_middle_of_sending_a_phases_reports(table):
    """Killed right after the server accepted the first report: that report's mark was
    committed with it, so the restart sends every other report and nothing twice."""
    host, players, scripted = table()
    send_orders(host, scripted)
    host.pbp("poll")
    assert crashed(host.pbp("advance", "g1", env={"PBP_CRASH_AT": "mid-send"}, check=False))
    rows = host.table("g1", "outbox")
    reports = [row for row in rows if row["kind"] == "report"]
    assert len(reports) == COUNT and sum(row["status"] == "sent" for row in reports) == 1
    host.pbp("poll")
    assert host.record("g1")["resolved"] == ["T0-class"]
    rows = assert_each_delivered_once(host, players)
    assert Counter(row["kind"] for row in rows) == {
        "welcome": COUNT,
        "receipt": COUNT,
        "report": COUNT,
    }


def test_killed_in_the_middle_of_a_resolution_at_start_up(table):
    host, players, scripted = table("class=1s,default=1h")
    send_orders(host, scripted)
    host.pbp("poll")
    before = host.record("g1")
    overdue = datetime.fromisoformat(before["deadline"])
    while datetime.now(timezone.utc) <= overdue:  # wait for the clock, not for a guess
        time.sleep(0.05)
    process = host.start_run(env={"PBP_CRASH_AT": "mid-resolution"})
    assert process.wait(timeout=30) == -signal.SIGKILL
    assert host.record("g1") == before  # nothing of the resolution was written
    process = host.start_run()
    try:
        deadline = time.monotonic() + 30
        while host.record("g1")["resolved"] != ["T0-class"]:
            assert time.monotonic() < deadline, host.log()
            time.sleep(0.1)
        rows = assert_each_delivered_once(host, players)
    finally:
        stop(process)
    assert host.record("g1")["resolved"] == ["T0-class"]
    assert host.record("g1")["phase_id"] == "T1-movement"
    assert Counter(row["kind"] for row in rows) == {
        "welcome": COUNT,
        "receipt": COUNT,
        "report": COUNT,
    }
