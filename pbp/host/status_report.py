"""`pbp status --json` for monitoring (docs/design.md: Running pbp as a service): the games,
their phases and deadlines, the daemon's state, the mail problems, the resolutions waiting
for the host, and the data folder's format; and the exit code a monitor reads.

Exit codes, the first that applies: `DAEMON_NOT_RUNNING` (3) when `pbp run` is not running
for the folder; `MAIL_FAILING` (4) when mail cannot be sent (a mail failed for good, or
waits for a retry after an error) or the daemon's last cycle failed; `RESOLUTION_WAITS` (5)
when a phase's resolution failed and waits for `pbp advance`, or a deadline passed more than
`OVERDUE_AFTER` ago unresolved; else 0.

Like `pbp status`, it reads the data folder without the writer lock."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from engine.errors import Wording
from pbp.game.clock import clock_of
from pbp.render.refusals import WordedText
from pbp.game.stalls import stall_notes
from pbp.game.stored import record_of
from pbp.release import pbp_version, read_stamp
from pbp.storage.daemon_state import is_running, read_state
from pbp.storage.datafolder import DataFolder, GameFile
from pbp.storage.open_games import open_game_ids
from pbp.storage.outbox import outbox_briefs
from pbp.timezones import as_utc

ALL_WELL, DAEMON_NOT_RUNNING, MAIL_FAILING, RESOLUTION_WAITS = 0, 3, 4, 5
# A deadline this long past and unresolved means the daemon is not keeping up.
OVERDUE_AFTER = timedelta(minutes=5)


def status_report(
    folder: DataFolder,
    now: datetime,
    game_id: str | None = None,
    games: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """What `pbp status --json` prints; its "exit_code" is the command's. `games`: the
    games' parts made already (the desk keeps them while the games' files are unchanged,
    and hands in those with a problem); by default every game's `game_status`."""
    stamp = read_stamp(folder.path)
    state = read_state(folder.path)
    if games is None:
        stalls = {note["game"]: note for note in stall_notes(folder)}
        games = [
            game_status(folder.game(gid), stalls.get(gid), now)
            for gid in ([game_id] if game_id else folder.game_ids())
        ]
    daemon = _daemon_part(state)
    mail_errors = [error for game in games for error in game["mail"]["errors"]]
    if daemon["running"] and daemon["last_error"]:
        failed = Wording(
            "the daemon's last cycle failed: %(error)s", {"error": daemon["last_error"]}
        )
        mail_errors.append(WordedText(failed))
    waiting = [game["resolution_waits"] for game in games if game["resolution_waits"]]
    problems = _problems(daemon["running"], mail_errors, waiting)
    code = (
        DAEMON_NOT_RUNNING
        if not daemon["running"]
        else MAIL_FAILING
        if mail_errors
        else RESOLUTION_WAITS
        if waiting
        else ALL_WELL
    )
    return {
        "data_folder": str(folder.path),
        "data_format": stamp.data_format,
        "written_by": stamp.written_by or None,
        "pbp_version": pbp_version(),
        "daemon": daemon,
        "games": games,
        "open_for_signups": open_game_ids(folder),
        "mail_failing": bool(mail_errors),
        "resolutions_waiting": waiting,
        "problems": problems,
        "exit_code": code,
    }


def _problems(running: bool, mail_errors: list[Any], waiting: list[Any]) -> list[WordedText]:
    """Every problem, each English text that keeps its Wording (for the desk)."""
    stopped = [] if running else [WordedText(Wording("pbp run is not running"))]
    waits = [
        WordedText(
            Wording(
                "%(game)s %(phase)s: %(why)s",
                {**wait, "why": getattr(wait["why"], "wording", wait["why"])},
            )
        )
        for wait in waiting
    ]
    return stopped + mail_errors + waits


def _daemon_part(state: dict[str, Any] | None) -> dict[str, Any]:
    """The report's part about `pbp run`: whether it runs, and what its state file says of
    its last cycle, its last error and its next wake (None for what it does not say)."""
    return {
        "running": is_running(state),
        **{
            key: (state or {}).get(key) or None
            for key in (
                "pid",
                "started",
                "stopped",
                "last_cycle",
                "last_error",
                "next_wake",
                "next_reason",
                "watch",
            )
        },
    }


def game_status(file: GameFile, stall: dict[str, str] | None, now: datetime) -> dict[str, Any]:
    """One game's part of the report: its phase, deadline, clock, result, whether its
    resolution waits for the host, and its mail's state."""
    record = record_of(file)
    rows = outbox_briefs(file)
    failed = [row for row in rows if row.failed]
    retrying = [row for row in rows if row.queued and row.error]
    waits = None
    if stall and stall["phase"] == record.phase_id:
        waits = {
            "game": record.id,
            "phase": record.phase_id,
            "since": stall["at"],
            "why": WordedText(
                Wording(
                    "its resolution failed (%(error)s); run `pbp advance %(game)s`",
                    {"error": stall["error"], "game": record.id},
                )
            ),
        }
    elif record.phase_id and record.deadline and as_utc(record.deadline) + OVERDUE_AFTER < now:
        waits = {
            "game": record.id,
            "phase": record.phase_id,
            "since": record.deadline,
            "why": WordedText(Wording("its deadline passed and it is not resolved")),
        }
    quarantined = sum(1 for row in file.mails.all() if row["outcome"] == "quarantine")
    return {
        "id": record.id,
        "ruleset": record.ruleset,
        "players": len(record.roster),
        "phase": record.phase_id or None,
        "deadline": record.deadline or None,
        "clock": clock_of(record).status_text(),
        "over": record.result is not None,
        "winners": list(record.result.winners) if record.result else None,
        "phases_resolved": len(record.resolved),
        "resolution_waits": waits,
        "mail": {
            "sent": len(rows) - len(failed) - len([r for r in rows if r.queued]),
            "waiting": len([r for r in rows if r.queued]),
            "failed": len(failed),
            "retrying_after_error": len(retrying),
            "quarantined": quarantined,
            "errors": [_mail_error(record.id, row) for row in failed + retrying],
        },
    }


def _mail_error(game_id: str, row: Any) -> WordedText:
    """One mail that failed for good or waits for a retry, as a problem of the report."""
    facts = {
        "game": game_id,
        "kind": row.kind,
        "recipient": row.recipient,
        "phase": row.phase,
        "error": row.error,
    }
    if row.failed:
        return WordedText(
            Wording("%(game)s: %(kind)s to %(recipient)s (%(phase)s) failed: %(error)s", facts)
        )
    return WordedText(
        Wording(
            "%(game)s: %(kind)s to %(recipient)s (%(phase)s) waits for a retry: %(error)s", facts
        )
    )
