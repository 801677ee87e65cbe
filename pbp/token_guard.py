"""Wrong tokens per sender address per day (docs/design.md: Hostile input — wrong tokens
are rate-limited per address).

A token is ten characters from a 31-letter alphabet, so guessing only works with many
tries; each block that names a wrong token is one try. Once an address has made
`wrong_tokens_per_sender_per_day` of them in a game on one day (UTC), every further block
of that address in that game is refused until the next day without its token being
looked at, so a right guess among later ones is worth nothing. The counts live in the
game file (table `wrong_tokens`), one row per address and day, written with the mail's
commit; the row that reaches the limit is marked `locked`, and the host is told then,
once (`pbp status` lists locked rows; with `[forum] host_address` a mail goes too:
pbp.forum.hooks.tell_host_of_wrong_tokens).
The host's approvals by mail (`APPROVE` with the host token) are counted the same way.
"""
from __future__ import annotations

from datetime import date

from pbp.datafolder import GameFile


class TokenGuard:
    """One sender's wrong tokens in one game on one day, counted while a mail is judged
    and written with its commit (`save`)."""

    def __init__(self, file: GameFile, address: str, day: date, limit: int):
        self.address, self.day, self.limit = address, day.isoformat(), limit
        rows = file.wrong_tokens.where("sender", address, lambda row: row["day"] == self.day)
        self._row = rows[0] if rows else None
        self.before = self._row["count"] if rows else 0
        self.count = self.before

    @property
    def locked(self) -> bool:
        """The address has used up its tries for today: its blocks are refused unread."""
        return self.count >= self.limit

    def note_wrong(self) -> None:
        self.count += 1

    @property
    def newly_locked(self) -> bool:
        """This mail used up the last try (the host is to be told, once)."""
        return self.before < self.limit <= self.count

    def save(self, file: GameFile) -> None:
        """Write the count (inside the mail's transaction), when this mail changed it."""
        if self.count == self.before:
            return
        fields = {"count": self.count, "locked": self.locked}
        if self._row is None:
            file.wrong_tokens.insert({"sender": self.address, "day": self.day, **fields})
        else:
            file.wrong_tokens.update(fields, doc_ids=[self._row.doc_id])


def locked_lines(file: GameFile, limit: int = 5) -> list[str]:
    """For `pbp status`: the latest addresses whose blocks were refused for wrong tokens."""
    rows = [row for row in file.wrong_tokens.all() if row.get("locked")]
    return [f"  blocks refused for the rest of {row['day']} (UTC): {row['sender']} sent {row['count']} wrong "
            "tokens (someone may be guessing a token)" for row in rows[-limit:]]

