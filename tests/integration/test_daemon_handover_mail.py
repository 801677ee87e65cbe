"""`pbp run` and the host's commands together over the real mail servers (Dovecot over
IMAPS, aiosmtpd delivering into Dovecot): the host advances a game while the daemon runs;
the reports reach every player's real mailbox once, and the daemon resolves the next
phase at its deadline although its next poll is ten minutes away (pbp.daemon.run)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest

from pbp.timezones import as_utc
from tests.fixtures.harness import infiltration_under_run, stop, wait_for

pytestmark = [pytest.mark.integration, pytest.mark.timeout(120)]


def test_advance_and_the_next_deadline_while_pbp_run_runs_over_imap_and_smtp(
    tmp_path, mail_server, smtp_server, make_player
):
    host, players = infiltration_under_run(
        tmp_path,
        mail_server,
        smtp_server,
        make_player,
        poll_interval=600,
        schedule="class=1h,movement=4s,default=1h",
    )
    process = host.start_run()
    try:
        wait_for(lambda: "pbp running" in host.log(), 20, "pbp run did not start", host)
        done = host.pbp("advance", "g1")
        assert "Resolved g1 T0-class." in done.stdout
        movement = host.record("g1")
        assert movement["phase_id"] == "T1-movement"
        after = wait_for(
            lambda: (r := host.record("g1"))["resolved"] == ["T0-class", "T1-movement"] and r,
            20,
            "the daemon did not resolve T1-movement",
            host,
        )
        assert (
            timedelta(0)
            <= as_utc(after["opened"]) - as_utc(movement["deadline"])
            <= timedelta(seconds=3)
        )
        rows = wait_for(
            lambda: (
                (rs := host.table("g1", "outbox"))
                and all(r["status"] == "sent" for r in rs)
                and len([r for r in rs if r["kind"] == "report"]) == 10
                and rs
            ),
            30,
            "the reports were not all sent",
            host,
        )
        for name, box in players:
            expected = Counter(r["message_id"] for r in rows if r["recipient"] == name)
            wait_for(
                lambda: (
                    Counter(m["Message-ID"] for m in mail_server.messages(box.address)) == expected
                ),
                20,
                f"{name}'s mailbox does not hold each of their mails once",
                host,
            )
        assert process.poll() is None
    finally:
        stop(process)
