"""Wrong tokens per sender address per day (docs/design.md: Hostile input — wrong tokens
are counted per address and never lock the owner out).

A token is ten characters from a 31-letter alphabet (31^10, some 8 * 10^14 tokens), and a
mail carries at most five blocks, so guessing is hopeless whatever the count; what a
stranger could do is forge the player's From and send wrong tokens, so the count must
never refuse the owner. Each block that names a wrong token counts against its address
in that game on that day (UTC); a block with the right token always counts, and starts
the count again. Once an address has sent `wrong_tokens_per_sender_per_day` wrong tokens
without a right one between, its later wrong tokens that day are not answered (a mail
with nothing but such blocks gets no reply), so forged mail cannot make pbp flood the
player with refusals. The host is told the first time an address reaches the limit on a
day (`pbp status` lists it; with `[forum] host_address` a mail goes too:
pbp.game.notifying.host_contact.tell_host_of_wrong_tokens). The counts live in the game file (table
`wrong_tokens`), one row per address and day, written with the mail's commit. The host's
token (approvals, NPC orders and answers by mail) is counted the same way.
"""

from __future__ import annotations

import secrets
from datetime import date

from pbp.storage.datafolder import GameFile

TOKEN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no look-alikes (l/1, o/0, i)


def new_token() -> str:
    """A player's new token: ten characters of TOKEN_ALPHABET."""
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(10))


class TokenGuard:
    """One sender's wrong tokens in one game on one day, counted while a mail is judged
    and written with its commit (`save`)."""

    def __init__(self, file: GameFile, address: str, day: date, limit: int):
        self.address, self.day, self.limit = address, day.isoformat(), limit
        rows = file.wrong_tokens.where("sender", address, lambda row: row["day"] == self.day)
        self._row = rows[0] if rows else None
        self.before = self._row["count"] if self._row else 0
        self.count = self.before
        # The address reached the limit earlier today, and the host was told then (rows
        # written before the count could start again call it `locked`).
        self.told_before = bool(self._row and self._row.get("host_told", self._row.get("locked")))
        self._past_limit = False  # this mail named a wrong token after the limit was reached
        self._right = False  # this mail named the right token

    def note_wrong(self) -> None:
        if self.count >= self.limit:
            self._past_limit = True
        self.count += 1

    def note_right(self) -> None:
        self._right = True
        self.count = 0

    @property
    def over_limit(self) -> bool:
        """The address has sent the day's limit of wrong tokens since its last right one."""
        return self.count >= self.limit

    @property
    def unanswered(self) -> bool:
        """This mail's answer is held back: it named wrong tokens past the limit and no
        right one."""
        return self._past_limit and not self._right

    @property
    def newly_over_limit(self) -> bool:
        """This mail brought the address to the limit for the first time today (the host
        is to be told, once)."""
        return not self.told_before and self.over_limit

    def save(self, file: GameFile) -> None:
        """Write the count (inside the mail's transaction), when this mail changed it."""
        told = self.told_before or self.newly_over_limit
        if self.count == self.before and told == self.told_before:
            return
        fields = {"count": self.count, "host_told": told}
        if self._row is None:
            file.wrong_tokens.insert({"sender": self.address, "day": self.day, **fields})
        else:
            file.wrong_tokens.update(fields, doc_ids=[self._row.doc_id])


def locked_lines(file: GameFile, limit: int = 5) -> list[str]:
    """For `pbp status`: the latest addresses that reached the day's limit of wrong tokens."""
    rows = [row for row in file.wrong_tokens.all() if row.get("host_told", row.get("locked"))]
    return [
        f"  wrong tokens: {row['sender']} reached the daily limit on {row['day']} (UTC); its later"
        " wrong tokens that day were not answered (someone may be guessing a token; its right"
        " token still works)"
        for row in rows[-limit:]
    ]
