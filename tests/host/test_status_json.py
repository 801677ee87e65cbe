"""`pbp status --json` for monitoring (pbp.host.status_report; docs/design.md: Running pbp as a
service): the games with their phases and deadlines, the daemon's state, mail problems,
resolutions waiting for the host, the data folder's format and the pbp that wrote it; and
the exit code: 3 when `pbp run` is not running, 4 when mail fails, 5 when a resolution
waits, 0 when all is well."""

from __future__ import annotations

import contextlib
import io
import json
import os
from datetime import timedelta

from pbp.cli import main
from pbp.game.create import create_game
from pbp.game.stalls import note_stall
from pbp.host.status_report import (
    ALL_WELL,
    DAEMON_NOT_RUNNING,
    MAIL_FAILING,
    OVERDUE_AFTER,
    RESOLUTION_WAITS,
    status_report,
)
from pbp.ports import PermanentSendError, TransientSendError
from pbp.release import read_stamp
from pbp.storage.daemon_state import write_state
from tests.fixtures.harness import ROSTER
from pbp.daemon.outbox_sending import send_due


def daemon_runs(folder, **state) -> None:
    """The state `pbp run` writes after a cycle, as this process (which lives)."""
    write_state(
        folder.path,
        {
            "pid": os.getpid(),
            "started": "2030-01-01T11:00:00+00:00",
            "last_cycle": "2030-01-01T12:00:00+00:00",
            "last_error": "",
            **state,
        },
    )


def test_all_well_shows_games_phases_deadlines_and_the_folders_format(moderator, sender, clock):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    daemon_runs(
        moderator.folder, next_wake="2030-01-02T12:00:00+00:00", next_reason="deadline of g1"
    )
    report = status_report(moderator.folder, clock())
    assert report["exit_code"] == ALL_WELL and report["problems"] == []
    (shown,) = report["games"]
    assert (shown["id"], shown["phase"], shown["over"]) == (game.id, game.record.phase_id, False)
    assert shown["deadline"] == game.record.deadline and shown["mail"]["sent"] == len(ROSTER)
    assert report["daemon"]["running"] and report["daemon"]["next_reason"] == "deadline of g1"
    stamp = read_stamp(moderator.folder.path)
    assert (report["data_format"], report["written_by"]) == (
        stamp.data_format,
        stamp.written_by or None,
    )
    assert report["pbp_version"]


def test_a_daemon_that_stopped_or_never_ran_is_exit_code_3(moderator, sender, clock):
    create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    assert status_report(moderator.folder, clock())["exit_code"] == DAEMON_NOT_RUNNING
    daemon_runs(moderator.folder, stopped="2030-01-01T12:30:00+00:00")
    report = status_report(moderator.folder, clock())
    assert (
        report["exit_code"] == DAEMON_NOT_RUNNING and "pbp run is not running" in report["problems"]
    )


def test_mail_that_failed_or_waits_for_a_retry_is_exit_code_4(moderator, sender, clock):
    create_game(moderator, "ballot", ROSTER, seed="s")
    daemon_runs(moderator.folder)
    sender.failures = [PermanentSendError("550 no such user"), TransientSendError("421 try later")]
    send_due(moderator.outbox, sender)
    report = status_report(moderator.folder, clock())
    assert report["exit_code"] == MAIL_FAILING and report["mail_failing"]
    mail = report["games"][0]["mail"]
    assert (mail["failed"], mail["retrying_after_error"]) == (1, 1)
    assert any("550 no such user" in problem for problem in report["problems"])


def test_a_failed_or_overdue_resolution_is_exit_code_5(moderator, sender, clock):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    daemon_runs(moderator.folder)
    note_stall(moderator.folder, game.id, game.record.phase_id, "ValueError: broken", clock())
    report = status_report(moderator.folder, clock())
    assert report["exit_code"] == RESOLUTION_WAITS
    (waits,) = report["resolutions_waiting"]
    assert waits["phase"] == game.record.phase_id and "pbp advance" in waits["why"]


def test_a_deadline_long_past_is_a_resolution_waiting(moderator, sender, clock):
    game = create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    daemon_runs(moderator.folder)
    deadline = status_report(moderator.folder, clock())["games"][0]["deadline"]
    assert deadline and status_report(moderator.folder, clock())["exit_code"] == ALL_WELL
    clock.advance(seconds=(timedelta(days=30) + OVERDUE_AFTER).total_seconds())
    report = status_report(moderator.folder, clock())
    assert (
        report["exit_code"] == RESOLUTION_WAITS
        and report["resolutions_waiting"][0]["game"] == game.id
    )


def test_the_command_prints_json_and_exits_with_the_reports_code(moderator, sender):
    create_game(moderator, "ballot", ROSTER, seed="s")
    send_due(moderator.outbox, sender)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["status", "--json", "--data", str(moderator.folder.path)])
    report = json.loads(out.getvalue())
    assert code == report["exit_code"] == DAEMON_NOT_RUNNING
    assert [game["id"] for game in report["games"]] == moderator.folder.game_ids()
