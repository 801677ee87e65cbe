"""What `pbp run` tells its log about each cycle (pbp.daemon.run), and the thread watch's
health it keeps in the daemon's state for `pbp status` (pbp.storage.daemon_state)."""
from __future__ import annotations

from datetime import datetime
from typing import Any, Callable

from pbp import schedule
from pbp.daemon.cycle import CycleReport
from pbp.forum.watch import WatchReport

Say = Callable[[str], None]


def say_cycle(report: CycleReport, say: Say) -> None:
    """One line per kind of work the cycle did; nothing for a cycle that found none."""
    if report.mail and not report.mail.idle:
        say(f"mail: {len(report.mail.processed)} judged, {len(report.mail.quarantined)} quarantined, "
            f"{len(report.mail.failed)} failed")
    for summary in report.resolutions:
        say(f"resolved {summary.game} {summary.phase}"
            + (f"; game over: {', '.join(summary.result['winners'])}" if summary.result else
               f"; next {summary.next_phase}"))
    for event in report.forum_events:
        say(f"forum: {event}")
    for sentence in report.started:  # sign-ups that closed (pbp.signups.starting)
        say(sentence)
    if report.sent.sent or report.sent.failed:
        say(f"sent {report.sent.sent} mails, {report.sent.failed} failed, "
            f"{report.sent.retrying} to retry")


def note_watch(state: dict[str, Any], report: WatchReport, clock: Callable[[], datetime], say: Say) -> None:
    """Say the watch's warnings, and when it starts failing or works again; keep in
    `state["watch"]` since when it fails, or when it last worked."""
    for text in report.warnings:
        say(f"thread watch: {text}")
    if not report.ran:
        return
    previous = state.get("watch") or {}
    now = schedule.to_text(clock())
    if report.error:
        if not previous.get("error"):
            say(f"thread watch failed ({report.error}); it tries again next cycle")
        state["watch"] = {**previous, "error": report.error,
                          "failing_since": previous.get("failing_since") or now}
    else:
        if previous.get("error"):
            say("thread watch works again")
        state["watch"] = {"last_ok": now, "error": "", "failing_since": "",
                          "warnings": previous.get("warnings", 0) + len(report.warnings)}
