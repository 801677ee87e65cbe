"""What `pbp status` shows of sign-ups (docs/design.md: Sign-ups and spectators): each game open for
sign-ups with its closing time and every confirmed sign-up, requests waiting for their
confirmation, and, once a game has started, its substitutes' list."""

from __future__ import annotations

from typing import Iterable

from pbp.storage.datafolder import DataFolder
from pbp.storage.outbox import outbox_briefs
from pbp.storage.open_games import OPEN, open_game, open_game_ids
from pbp.storage.signup_record import SignupEntry
from pbp.signups.codes import NEW_ADDRESS_ANSWERS_PER_DAY
from pbp.timezones import render_moment


def _names(entries: Iterable[SignupEntry]) -> str:
    return ", ".join(_entry(e) for e in entries) or "none"


def signup_lines(folder: DataFolder, game_id: str | None = None) -> list[str]:
    lines: list[str] = []
    for known in open_game_ids(folder):
        if game_id is not None and known != game_id:
            continue
        signups = open_game(folder, known)
        record = signups.record
        if record.status == OPEN:
            lines.append(
                f"Sign-ups for {known} ({record.ruleset}, {record.players_min} to "
                f"{record.players_max} players), closing {render_moment(record.closes)}"
            )
            lines.append(f"  signed up ({len(signups.players)}): {_names(signups.players)}")
            if record.pending:
                lines.append(f"  waiting for a confirmation code: {len(record.pending)}")
            answered = record.new_addresses_answered
            if answered.get("count", 0) >= NEW_ADDRESS_ANSWERS_PER_DAY:
                lines.append(
                    f"  {answered['count']} new addresses were answered on {answered['day']} (UTC),"
                    " the most in a day; later sign-up mail from new addresses that day was not"
                    " answered (see the unknown senders)"
                )
            if record.host_told:
                lines.append(
                    f"  closed short of players; starts when {record.players_min} have signed up, "
                    f"or with `pbp start {known}`"
                )
        elif game_id is not None or signups.substitutes:
            lines.append(f"Sign-ups for {known}: started")
        if signups.substitutes:
            lines.append(
                f"  substitutes' list ({len(signups.substitutes)}): {_names(signups.substitutes)}"
            )
        rows = outbox_briefs(signups.file)
        failed = [row for row in rows if row.failed]
        waiting = [row for row in rows if row.queued]
        if failed or waiting:
            lines.append(f"  sign-up mail: {len(waiting)} waiting, {len(failed)} failed")
        for row in failed:
            lines.append(f"    FAILED {row.kind} to {row.address}: {row.error}")
    return lines


def _entry(entry: SignupEntry) -> str:
    """`Alice <alice@example.org>`, with the time zone and forum account the sign-up gave."""
    extras = [entry.timezone, f"forum {entry.forum_name}" if entry.forum_name else ""]
    shown = ", ".join(extra for extra in extras if extra)
    return f"{entry.name} <{entry.email}>" + (f" ({shown})" if shown else "")
