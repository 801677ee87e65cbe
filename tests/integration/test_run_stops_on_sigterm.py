"""SIGTERM to `pbp run` in the middle of a cycle, over the real mail servers (Dovecot over
IMAPS, aiosmtpd delivering into Dovecot; pbp.daemon.stopping, docs/design.md: Running pbp as
a service). The SMTP server holds its answer to the cycle's first mail (delivered, not yet
acknowledged) until the test releases it; the SIGTERM is sent while it is held. The cycle
then finishes: every mail it queued is sent once, none twice, none left behind, the
daemon says it stopped and exits 0. Nothing waits on a delay: the test waits for the
server's held mail and for the process to end."""

from __future__ import annotations

import contextlib
import io
import signal
from collections import Counter
from datetime import datetime, timedelta, timezone

import pytest

from pbp.cli import build_parser, main
from pbp.storage.daemon_state import read_state
from tests.fixtures.harness import infiltration_under_run, stop, wait_all_sent, wait_for


pytestmark = [pytest.mark.integration, pytest.mark.timeout(180)]


def test_sigterm_in_the_middle_of_a_cycle_lets_it_finish_and_exits_0(
    tmp_path, mail_server, smtp_server, make_player
):
    host, players = infiltration_under_run(
        tmp_path, mail_server, smtp_server, make_player, poll_interval=600
    )
    process = host.start_run()
    try:
        wait_all_sent(host, "g1", timeout=60)  # the welcomes, sent by the first cycle
        wait_for(
            lambda: (read_state(host.data) or {}).get("last_cycle"), 30, "no first cycle", host
        )
        smtp_server.hold_next_data()
        # The deadline comes in 10 s: the daemon, told by the folder's stamps, runs a cycle
        # that sends the extension's notices, resolves the phase and sends its reports.
        build_parser()  # the commands' modules are imported before the clock is read: a loaded machine is slow
        soon = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=10)
        with contextlib.redirect_stdout(io.StringIO()):
            assert (
                main(
                    [
                        "extend",
                        "g1",
                        soon.strftime("%Y-%m-%d %H:%M:%S UTC"),
                        "--no-send",
                        "--settings",
                        str(host.settings),
                    ]
                )
                == 0
            )
        assert smtp_server.data_held.wait(60), f"no mail was sent; log:\n{host.log()}"
        process.send_signal(signal.SIGTERM)  # while the cycle waits for the server's answer
        wait_for(
            lambda: "stopping" in host.log(), 30, "the daemon did not notice the SIGTERM", host
        )
        smtp_server.release_data()
        assert process.wait(timeout=60) == 0, host.log()
    finally:
        smtp_server.release_data()
        stop(process)
    rows = host.table("g1", "outbox")
    assert rows and all(row["status"] == "sent" for row in rows), [
        (r["kind"], r["status"]) for r in rows
    ]
    for name, box in players:
        expected = Counter(row["message_id"] for row in rows if row["recipient"] == name)
        wait_for(
            lambda: Counter(m["Message-ID"] for m in mail_server.messages(box.address)) == expected,
            20,
            f"{name}'s mailbox does not hold each of their mails exactly once",
            host,
        )
    log = host.log()
    assert "pbp stopped." in log and "Traceback" not in log
    reports = [row for row in rows if row["kind"] == "report"]
    if "T0-class" in host.record("g1")["resolved"]:  # the held cycle resolved it: committed whole
        assert len(reports) == len(players)
        assert (
            " INFO game=g1 resolved g1 T0-class" in log
        )  # one line per event, with its level and game
    else:  # the held cycle sent the notices only; the resolution never started
        assert not reports
    state = read_state(host.data)
    assert state and state.get("stopped")
    status = host.pbp("status", "--json", check=False)
    assert status.returncode == 3 and '"running": false' in status.stdout
