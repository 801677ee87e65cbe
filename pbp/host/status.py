"""What `pbp status [game]` shows the host (docs/design.md: Command line): games, phases,
deadlines, who has orders in, failed mail, addresses refused for wrong tokens, mail from
unknown senders, quarantined mail; and per game the public thread: drafts waiting for the
host, their leak check, and what is
published or failed to publish.

It reads the data folder without taking the writer lock (files are replaced atomically,
so a reader always sees a whole version), so it works while `pbp run` is running.

"No orders yet" names only the players pbp is waiting for: the open phase's actors (the
engine lists only the living) whose order grammar is not empty (a Werewolf villager at
night has nothing to order) and who have no accepted orders in. Telling them apart needs
the engine's phase, so the game's state is decoded with `rules_for`; a game that cannot be
decoded (a role module the settings no longer name) is reported, not fatal.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Callable, Mapping, Sequence

from engine.core import Phase, Ruleset
from pbp.game import bounce_counts
from pbp.conversations.log import waiting_questions
from pbp.storage.daemon_state import status_lines as daemon_lines
from pbp.game.clock import clock_of
from pbp.game.record import GameRecord
from pbp.game.stored import record_of
from pbp.game.stalls import stall_notes
from pbp.host.release_status import folder_line, game_line
from pbp.release import read_stamp
from pbp.storage.drafts import APPROVED, DRAFT, OPTIONAL_KINDS, PUBLISHED, DraftBook
from pbp.storage.outbox import outbox_briefs
from pbp.game.notifying.reminders import players_to_remind
from pbp.rulesets import load_ruleset
from pbp.storage.datafolder import DataFolder, GameFile
from pbp.storage.open_games import open_game_ids
from pbp.signups.signup_status import signup_lines
from pbp.storage.strangers import StrangerLog
from pbp.timezones import render_timestamp
from pbp.game.judging.token_guard import locked_lines

RulesFor = Callable[[str], Ruleset]
# A game's lines told by a higher layer (the forum's thread: pbp.forum.thread.thread_status).
GameLines = Callable[[GameFile, GameRecord, Ruleset], list[str]]


def status_text(
    folder: DataFolder,
    game_id: str | None = None,
    rules_for: RulesFor = load_ruleset,
    thread_lines: GameLines | None = None,
) -> str:
    """`rules_for` names a ruleset's engine (`Moderator.rules`, which knows the host's extra
    Werewolf roles); the default knows the built-in rulesets. `thread_lines` adds each
    game's thread votes and activity (`pbp status` passes pbp.forum.thread.thread_status's)."""
    lines: list[str] = []
    if game_id and game_id not in folder.game_ids() and game_id in open_game_ids(folder):
        return "\n".join(signup_lines(folder, game_id))  # open for sign-ups, not dealt yet
    ids = [game_id] if game_id else folder.game_ids()
    lines.append(folder_line(folder.path))
    stamp = read_stamp(folder.path)
    if not ids and not open_game_ids(folder):
        lines.append(
            "No games yet; start one with `pbp new-game`, or open one for sign-ups with `pbp"
            " open-game`."
        )
    elif not ids:
        lines.append("No game is running yet; these are open for sign-ups:")
    for gid in ids:
        file = folder.game(gid)
        record = record_of(file)
        lines.append(f"Game {gid} ({record.ruleset}, {len(record.roster)} players)")
        lines.extend(line for line in [game_line(record, rules_for, stamp)] if line)
        if record.result:
            result = record.result
            lines.append(f"  over: winners {', '.join(result.winners) or 'nobody'} ({result.path})")
        else:
            lines.append(f"  phase {record.phase_id}, deadline {clock_of(record).status_text()}")
            for note in stall_notes(folder):
                if note["game"] == gid and note["phase"] == record.phase_id:
                    lines.append(
                        f"  RESOLUTION FAILED at {note['at']}: {note['error']}; the daemon skips"
                        f" this phase until you run `pbp advance {gid}`"
                    )
            lines.extend(_orders_lines(file, record, rules_for))
        waiting = waiting_questions(file)
        if waiting:
            lines.append(
                "  messages to the host not answered yet:"
                f" {', '.join(f'{who} ({phase})' for who, phase in waiting)}; read them with `pbp"
                f" channel {gid} host`, answer with `pbp reply {gid} <player> <text>`"
            )
        lines.append(f"  phases resolved: {len(record.resolved)}")
        rows = outbox_briefs(file)
        queued = [r for r in rows if r.queued]
        failed = [r for r in rows if r.failed]
        lines.append(
            f"  outbox: {len(rows) - len(queued) - len(failed)} sent, {len(queued)} waiting,"
            f" {len(failed)} failed"
        )
        for row in queued:
            if row.error:
                lines.append(
                    f"    retrying {row.kind} to {row.recipient} ({row.phase}): {row.error}"
                )
        for row in failed:
            lines.append(f"    FAILED {row.kind} to {row.recipient} ({row.phase}): {row.error}")
        lines.extend(locked_lines(file))
        lines.extend(bounce_counts.status_lines(file))
        lines.extend(public_thread_lines(file))
        if thread_lines:
            lines.extend(_thread_lines(file, record, rules_for, thread_lines))
    lines.extend(signup_lines(folder, game_id))
    if not game_id:
        unknown = [
            r for r in folder.mails.all() if r["outcome"] != "quarantine"
        ]  # kept one by one before
        quarantined = [r for r in folder.mails.all() if r["outcome"] == "quarantine"]
        for file in folder.games():
            quarantined.extend(r for r in file.mails.all() if r["outcome"] == "quarantine")
        lines.extend(_strangers_lines(StrangerLog(folder).summary(), unknown))
        lines.append(f"Quarantined or too big (not answered): {len(quarantined)}")
        for mail in quarantined[-20:]:
            lines.append(
                f"  {render_timestamp(mail['received'])} {mail['sender'] or '?'}:"
                f" {mail['subject']!r} ({mail['reason']})"
            )
        lines.extend(
            daemon_lines(folder.path)
        )  # is `pbp run` running, and is its thread watch well
    return "\n".join(lines)


def _strangers_lines(
    summary: Mapping[str, Any], older_rows: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Mail from addresses on no roster: the totals, then the last addresses heard from."""
    senders = summary["senders"]
    forgotten = (
        f"; {summary['forgotten_senders']} addresses silent the longest are no longer listed"
        if summary["forgotten_senders"]
        else ""
    )
    lines = [
        f"Mail from unknown senders (not answered): {summary['mails'] + len(older_rows)} "
        f"from {len(senders)} addresses{forgotten}"
    ]
    for row in older_rows[-20:]:
        lines.append(
            f"  {render_timestamp(row['received'])} {row['sender'] or '(no single From address)'}: "
            f"{row['subject']!r} ({row['reason']})"
        )
    for address, seen in list(senders.items())[-20:]:
        first = f", first {render_timestamp(seen['first'])}" if seen["count"] > 1 else ""
        lines.append(
            f"  {address or '(no single From address)'}: {seen['count']} mail(s){first}, "
            f"last {render_timestamp(seen['last'])}: {seen['subject']!r} ({seen['reason']})"
        )
    return lines


def _thread_lines(
    file: GameFile, record: GameRecord, rules_for: RulesFor, thread_lines: GameLines
) -> list[str]:
    """The thread's votes and activity (pbp.forum.thread.thread_status); a game whose state cannot
    be read says so in its orders' lines already."""
    try:
        return thread_lines(file, record, rules_for(record.ruleset))
    except Exception:  # noqa: BLE001 - status must show the rest of the game anyway
        return []


def _open_phase(record: GameRecord, rules_for: RulesFor) -> Phase | None:
    rules = rules_for(record.ruleset)
    return rules.phase(rules.from_json(record.state))


def orders_facts(file: GameFile, record: GameRecord, rules_for: RulesFor) -> dict[str, Any]:
    """Who has orders in (`in`), who is awaited (`awaited`; the NPCs among them also in
    `npcs`), who has nothing to order in the open phase (`idle`); `open`: the game has
    an open phase; `unreadable` says why the awaited are unknown when the game's state
    cannot be read (else "")."""
    orders = sorted({row["player"] for row in file.orders.where("phase", record.phase_id)})
    facts: dict[str, Any] = {
        "in": orders,
        "awaited": [],
        "npcs": [],
        "idle": [],
        "unreadable": "",
        "open": False,
    }
    try:
        phase = _open_phase(record, rules_for)
    except Exception as error:  # noqa: BLE001 - status must show the rest of the game anyway
        facts["unreadable"] = str(error)
        return facts
    if phase is None:
        return facts
    awaited = players_to_remind(phase)
    facts["open"] = True
    facts["awaited"] = [name for name in awaited if name not in orders]
    facts["npcs"] = [name for name in facts["awaited"] if name in set(record.npc_names)]
    facts["idle"] = [name for name in phase.actors if name not in awaited]
    return facts


def _orders_lines(file: GameFile, record: GameRecord, rules_for: RulesFor) -> list[str]:
    """Who has orders in, who is awaited, who has nothing to order in the open phase."""
    facts = orders_facts(file, record, rules_for)
    lines = [f"  orders in: {', '.join(facts['in']) or 'none'}"]
    if facts["unreadable"]:
        lines.append(
            f"  no orders yet: unknown (the game's state cannot be read: {facts['unreadable']})"
        )
        return lines
    if facts["open"]:
        waiting = [
            f"{name} (NPC: `pbp submit`)" if name in facts["npcs"] else name
            for name in facts["awaited"]
        ]
        lines.append(f"  no orders yet: {', '.join(waiting) or 'none'}")
    if facts["idle"]:
        lines.append(f"  nothing to order in this phase: {', '.join(facts['idle'])}")
    return lines


def drafts_waiting(file: GameFile) -> list[dict[str, Any]]:
    """The public posts drafted and waiting for the host's approval (a running vote
    count among them holds nothing up)."""
    return [dict(row) for row in DraftBook(file).all() if row["status"] == DRAFT]


def public_thread_lines(file: GameFile) -> list[str]:
    """The game's public posts: how many are published (and the last one), each draft
    still waiting for the host's approval with its leak check, each approved post still
    to publish, and each publishing failure with its next try."""
    rows = DraftBook(file).all()
    if not rows:
        return []
    published = [row for row in rows if row["status"] == PUBLISHED]
    last = f" (last: {published[-1]['phase']})" if published else ""
    lines = [f"  public posts: {len(published)} published{last}"]
    # why the posts after this one wait: posts go out in order (pbp.forum.publishing.publish)
    holding = ""
    for row in rows:
        if row["status"] == DRAFT:
            what = (
                "running vote count, holds nothing up"
                if row.get("kind") == "tally"
                else "waiting for approval"
            )
            edited = ", edited by the host" if row.get("edited") else ""
            lines.append(f"    draft {row['phase']}: {what}{edited}; {_leak_state(row)}")
            if not holding and row.get("kind") not in OPTIONAL_KINDS:
                holding = f"held until {row['phase']} is approved (posts go out in order)"
        elif row["status"] == APPROVED:
            forced = "; approved with --force despite the leak check" if row.get("forced") else ""
            lines.append(f"    approved {row['phase']}: {holding or _publish_state(row)}{forced}")
            if not holding and row.get("error"):
                holding = f"held until {row['phase']} is published (posts go out in order)"
    return lines


def _leak_state(row: dict[str, Any]) -> str:
    leaks = row.get("leaks") or []
    if not leaks:
        return "leak check passed"
    more = f" (and {len(leaks) - 1} more)" if len(leaks) > 1 else ""
    return f"LEAK CHECK FAILED: {leaks[0]}{more}"


def _publish_state(row: dict[str, Any]) -> str:
    if not row.get("error"):
        return "waiting to be published (`pbp publish` or `pbp run`)"
    attempt = f" after {row['attempts']} attempt(s)" if row.get("attempts") else ""
    next_try = (
        f"; next try {render_timestamp(datetime.fromtimestamp(row['next_try'], timezone.utc))}"
        if row.get("next_try")
        else ""
    )
    return f"PUBLISHING FAILED{attempt}: {row['error']}{next_try}"
