"""`pbp run` and the host's commands together over the real mail servers (Dovecot over
IMAPS, aiosmtpd delivering into Dovecot): the host advances a game while the daemon runs;
the reports reach every player's real mailbox once, and the daemon resolves the next
phase at its deadline although its next poll is ten minutes away (pbp.daemon.run)."""
from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from pbp.timezones import as_utc
from tests.fixtures.waiting import wait_until
from tests.integration.harness import Host, make_players, stop, write_roster

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def wait_for(condition, timeout: float, what: str, host: Host):
    return wait_until(condition, timeout, what, log=host.log)


def test_advance_and_the_next_deadline_while_pbp_run_runs_over_imap_and_smtp(tmp_path, mail_server, smtp_server,
                                                                             make_player):
    host = Host(tmp_path, mail_server, smtp_server, mail_server.add_user(mail_server.new_address("pbp")),
                poll_interval=600)
    host.write_settings()
    players = make_players(make_player, 5)
    host.pbp("new-game", "--ruleset", "infiltration", "--roster", str(write_roster(tmp_path, players)),
             "--seed", "8", "--schedule", "class=1h,movement=4s,default=1h", "--id", "g1",
             "--option", "reminders=off")
    process = host.start_run()
    try:
        wait_for(lambda: "pbp running" in host.log(), 20, "pbp run did not start", host)
        done = host.pbp("advance", "g1")
        assert "Resolved g1 T0-class." in done.stdout
        movement = host.record("g1")
        assert movement["phase_id"] == "T1-movement"
        after = wait_for(lambda: (r := host.record("g1"))["resolved"] == ["T0-class", "T1-movement"] and r,
                         20, "the daemon did not resolve T1-movement", host)
        assert timedelta(0) <= as_utc(after["opened"]) - as_utc(movement["deadline"]) <= timedelta(seconds=3)
        rows = wait_for(lambda: (rs := host.table("g1", "outbox")) and all(r["status"] == "sent" for r in rs)
                        and len([r for r in rs if r["kind"] == "report"]) == 10 and rs,
                        30, "the reports were not all sent", host)
        for name, box in players:
            expected = Counter(r["message_id"] for r in rows if r["recipient"] == name)
            wait_for(lambda: Counter(m["Message-ID"] for m in mail_server.messages(box.address)) == expected,
                     20, f"{name}'s mailbox does not hold each of their mails once", host)
        assert process.poll() is None
    finally:
        stop(process)
