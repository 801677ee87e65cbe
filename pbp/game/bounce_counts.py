"""The bounces a game's file records (pbp.desk.bounces files them) and what `pbp status`
shows of them (docs/design.md: Real mail providers): the count per player's current
address, flagged from `FLAG_AFTER` bounces so the host can hand the character to a
substitute."""

from __future__ import annotations

from tinydb.table import Table

from pbp.game.stored import record_of
from pbp.storage.datafolder import GameFile
from pbp.timezones import render_timestamp

TABLE = "bounces"
FLAG_AFTER = 2


def bounce_table(file: GameFile) -> Table:
    return file.db.table(TABLE, cache_size=0)


def bounce_counts(file: GameFile) -> dict[str, tuple[str, int, str]]:
    """{player: (address, bounces, last received)} for the roster's current addresses."""
    roster = {player.name: player.email for player in record_of(file).roster}
    counts: dict[str, tuple[str, int, str]] = {}
    for row in bounce_table(file).all():
        if roster.get(row["player"]) != row["address"]:
            continue  # the player was substituted since: the old address no longer matters
        _address, count, last = counts.get(row["player"], (row["address"], 0, ""))
        counts[row["player"]] = (row["address"], count + 1, max(last, row["received"]))
    return counts


def status_lines(file: GameFile) -> list[str]:
    """`pbp status` lines: each player whose mail bounced, flagged from `FLAG_AFTER` bounces."""
    lines = []
    for name, (address, count, last) in sorted(bounce_counts(file).items()):
        times = "once" if count == 1 else f"{count} times"
        line = (
            f"  BOUNCED: mail to {name} <{address}> bounced {times} (last {render_timestamp(last)})"
        )
        if count >= FLAG_AFTER:
            line += (
                f"; FLAGGED: substitute them with `pbp substitute {file.id} {name} <new-name>"
                " <new-email>`"
            )
        lines.append(line)
    return lines
