"""What `pbp run` logs about each cycle (pbp.daemon.run, through pbp.daemon.logs: one line per
event, with its level and game), and the thread watch's health it keeps in the daemon's
state for `pbp status` (pbp.storage.daemon_state)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Callable

from pbp.timezones import to_text
from pbp.daemon import logs
from pbp.daemon.cycle import CycleReport
from pbp.forum.thread.watch import WatchReport

# A sending error names the mail's Message-ID, `<pbp.<game>.<phase>.…>` (pbp.storage.outbox_queue),
# or its game: "game <id>: …".
GAME_IN_PROBLEM = re.compile(r"^(?:<pbp\.([^.>]+)\.|game ([^:\s]+):)")


def log_cycle(report: CycleReport) -> None:
    """One line per kind of work the cycle did, and one per mail it could not read or send;
    nothing for a cycle that found no work."""
    if report.mail and not report.mail.idle:
        logs.info(
            f"mail: {len(report.mail.processed)} judged, {len(report.mail.quarantined)}"
            f" quarantined, {len(report.mail.failed)} failed"
        )
        for quarantined in report.mail.quarantined:
            logs.warning(
                f"mail {quarantined.key} from {quarantined.sender or '?'} quarantined:"
                f" {quarantined.reason}"
            )
        for key, reason in report.mail.failed:
            logs.warning(f"mail {key} could not be read: {reason}")
    for summary in report.resolutions:
        logs.info(
            f"resolved {summary.game} {summary.phase}"
            + (
                f"; game over: {', '.join(summary.result.winners)}"
                if summary.result
                else f"; next {summary.next_phase}"
            ),
            game=summary.game,
        )
    for event in report.forum_events:
        logs.info(f"forum: {event}")
    for sentence in report.started:  # sign-ups that closed (pbp.signups.starting)
        logs.info(sentence)
    if report.sent.sent or report.sent.failed or report.sent.retrying:
        logs.info(
            f"sent {report.sent.sent} mails, {report.sent.failed} failed, "
            f"{report.sent.retrying} to retry"
        )
    for problem in report.sent.errors:
        logs.warning(f"sending failed: {problem}", game=_game_of(problem))


def _game_of(problem: str) -> str:
    found = GAME_IN_PROBLEM.match(problem)
    return (found.group(1) or found.group(2)) if found else logs.GAME_NONE


def note_watch(state: dict[str, Any], report: WatchReport, clock: Callable[[], datetime]) -> None:
    """Log the watch's warnings, and when it starts failing or works again; keep in
    `state["watch"]` since when it fails, or when it last worked."""
    for text in report.warnings:
        logs.warning(f"thread watch: {text}")
    if not report.ran:
        return
    previous = state.get("watch") or {}
    now = to_text(clock())
    if report.error:
        if not previous.get("error"):
            logs.warning(f"thread watch failed ({report.error}); it tries again next cycle")
        state["watch"] = {
            **previous,
            "error": report.error,
            "failing_since": previous.get("failing_since") or now,
        }
    else:
        if previous.get("error"):
            logs.info("thread watch works again")
        state["watch"] = {
            "last_ok": now,
            "error": "",
            "failing_since": "",
            "warnings": previous.get("warnings", 0) + len(report.warnings),
        }
