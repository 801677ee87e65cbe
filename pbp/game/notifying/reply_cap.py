"""The replies-per-sender-per-day cap (docs/design.md: Hostile input): every mail pbp
sends in answer to something a sender did — an answer to their mail, a note about their
post in the thread — counts against `replies_per_sender_per_day` in the game's `replies`
table, so a mail loop or a flood of votes cannot make pbp flood an address."""

from __future__ import annotations

from pbp.moderator import Moderator
from pbp.storage.datafolder import GameFile


def may_reply(moderator: Moderator, file: GameFile, address: str) -> bool:
    """Whether the game of `file` (a game's or an open game's) may mail `address` once
    more today; counts the reply when it may."""
    day = moderator.clock().date().isoformat()
    replies = file.replies
    rows = replies.where("sender", address, lambda row: row["day"] == day)
    count = rows[0]["count"] if rows else 0
    if count >= moderator.settings.replies_per_sender_per_day:
        return False
    if rows:
        replies.update({"count": count + 1}, doc_ids=[rows[0].doc_id])
    else:
        replies.insert({"sender": address, "day": day, "count": 1})
    return True
