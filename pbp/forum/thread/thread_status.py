"""What `pbp status` and `pbp show` say about a game's thread (docs/design.md: Public posts
— votes in the thread, activity): a resolution that waits for the thread, the posts not
counted, each living player's posts and words, who was prodded, and each player's forum
account."""

from __future__ import annotations

from engine.core import Ruleset
from pbp.forum.thread.activity import activity_lines
from pbp.game.final_read import waiting_reason
from pbp.forum.thread.forum_names import linked_accounts
from pbp.forum.thread.thread_mail import host_note_lines
from pbp.game.record import GameRecord
from pbp.game.stored import StoredGame
from pbp.storage.datafolder import GameFile


def status_lines(file: GameFile, record: GameRecord, rules: Ruleset) -> list[str]:
    """`pbp status`: the thread's part of a game's lines (the current game day's activity)."""
    reason = waiting_reason(file, record.phase_id) if record.phase_id else ""
    state = rules.from_json(record.state)
    game = StoredGame(file, record, rules, state, rules.phase(state))
    return [*([f"  {reason}"] if reason else []), *activity_lines(game), *host_note_lines(game)]


def show_lines(game: StoredGame) -> list[str]:
    """`pbp show`: every game day's activity, and the forum account of each player."""
    accounts = linked_accounts(game)
    lines = activity_lines(game, days=0)
    if accounts:
        lines.append(
            "  forum accounts: "
            + ", ".join(f"{name} = {shown}" for name, shown in accounts.items())
        )
    return lines
