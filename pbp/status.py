"""What `pbp status [game]` shows the host (issue 4: Deadlines): games, phases, deadlines,
who has orders in, failed mail, mail from unknown senders, quarantined mail.

It reads the data folder without taking the writer lock (files are replaced atomically,
so a reader always sees a whole version), so it works while `pbp run` is running.
"""
from __future__ import annotations

from pbp.daemon_state import status_lines as daemon_lines
from pbp.outbox import FAILED, QUEUED
from pbp.store import DataFolder
from pbp.timezones import render_timestamp


def status_text(folder: DataFolder, game_id: str | None = None) -> str:
    lines: list[str] = []
    ids = [game_id] if game_id else folder.game_ids()
    if not ids:
        lines.append("No games yet; start one with `pbp new-game`.")
    for gid in ids:
        file = folder.game(gid)
        record = file.record()
        lines.append(f"Game {gid} ({record['ruleset']}, {len(record['roster'])} players)")
        if record["result"]:
            result = record["result"]
            lines.append(f"  over: winners {', '.join(result['winners']) or 'nobody'} ({result['path']})")
        else:
            phase = record["phase_id"]
            orders = {row["player"] for row in file.orders.all() if row["phase"] == phase}
            deadline = render_timestamp(record["deadline"]) if record["deadline"] else "none (paused by the host)"
            lines.append(f"  phase {phase}, deadline {deadline}")
            names = [e["name"] for e in record["roster"]]
            lines.append(f"  orders in: {', '.join(sorted(orders)) or 'none'}")
            waiting = [n for n in names if n not in orders]
            lines.append(f"  no orders yet: {', '.join(waiting) or 'none'}")
        lines.append(f"  phases resolved: {len(record['resolved'])}")
        rows = file.outbox.all()
        queued = [r for r in rows if r["status"] == QUEUED]
        failed = [r for r in rows if r["status"] == FAILED]
        lines.append(f"  outbox: {len(rows) - len(queued) - len(failed)} sent, {len(queued)} waiting, {len(failed)} failed")
        for row in queued:
            if row["error"]:
                lines.append(f"    retrying {row['kind']} to {row['recipient']} ({row['phase']}): {row['error']}")
        for row in failed:
            lines.append(f"    FAILED {row['kind']} to {row['recipient']} ({row['phase']}): {row['error']}")
    if not game_id:
        unknown = [r for r in folder.mails.all() if r["outcome"] != "quarantine"]
        quarantined = [r for r in folder.mails.all() if r["outcome"] == "quarantine"]
        for file in folder.games():
            quarantined.extend(r for r in file.mails.all() if r["outcome"] == "quarantine")
        lines.append(f"Mail from unknown senders (not answered): {len(unknown)}")
        for row in unknown[-20:]:
            lines.append(f"  {render_timestamp(row['received'])} {row['sender'] or '(no single From address)'}: "
                         f"{row['subject']!r} ({row['reason']})")
        lines.append(f"Quarantined or too big (not answered): {len(quarantined)}")
        for row in quarantined[-20:]:
            lines.append(f"  {render_timestamp(row['received'])} {row['sender'] or '?'}: {row['subject']!r} ({row['reason']})")
        lines.extend(daemon_lines(folder.path))  # is `pbp run` running, and is its thread watch well
    return "\n".join(lines)
