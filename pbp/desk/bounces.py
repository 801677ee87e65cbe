"""Bounces for a player's address (design.md: Real mail providers): a delivery status
notification is matched to the player by the Message-ID of the mail of ours that came back
(the outbox holds every one; a report that quotes none of ours is a stranger's mail) —
recorded in that game's file, never answered, and shown in `pbp status`. The host is
mailed once per bounced address (at `[forum] host_address`, when set); an address that
bounced `FLAG_AFTER` times is flagged so the host can hand the character to a substitute
(pbp.game.bounce_counts).

Recording is idempotent per mail (its key): a bounce judged again after a crash is not
counted twice.
"""

from __future__ import annotations

from tinydb import where

from pbp.timezones import to_text
from pbp.ports import Bounce, InboundMail
from pbp.render.renderer import FINISHED
from pbp.render.verdicts import Note
from pbp.game.bounce_counts import FLAG_AFTER, bounce_table
from pbp.game.stored import record_of
from pbp.storage.datafolder import DataFolder, GameFile
from pbp.storage.outbox import outbox_briefs
from pbp.moderator import Moderator

HOST = "host"


def matches(folder: DataFolder, bounce: Bounce) -> dict[str, dict[str, str]]:
    """{game id: {player name: roster address}} of the players this bounce is about: those
    to whose current address pbp sent a mail whose Message-ID the report quotes. The failed
    address a report names counts for nothing: anyone can write a report naming anyone,
    but only the mail's recipient (and pbp) knows its Message-ID
    (pbp.storage.outbox_queue.message_id).
    """
    originals = set(bounce.original_ids)
    found: dict[str, dict[str, str]] = {}
    known = set(folder.game_ids())
    for game_id in sorted({_game_of(original) for original in originals} & known):
        file = folder.game(game_id)
        roster = {player.name: player.email for player in record_of(file).roster}
        for row in outbox_briefs(file, lambda row: row["message_id"] in originals):
            if row.recipient in roster and roster[row.recipient] == row.address:
                found.setdefault(game_id, {})[row.recipient] = row.address
    return found


def _game_of(message_id: str) -> str:
    """The game a Message-ID of pbp's names (`<pbp.<game>.…`), or ""."""
    return message_id[len("<pbp.") :].split(".", 1)[0] if message_id.startswith("<pbp.") else ""


def file_bounce(moderator: Moderator, mail: InboundMail) -> tuple[GameFile, str] | None:
    """Record a bounce in each game it concerns (and queue the host's notices); return the
    file that keeps the mail itself and the reason to note, or None when it names no
    player (it is then handled like any mail from an unknown sender)."""
    bounce = mail.bounce
    found = matches(moderator.folder, bounce) if bounce is not None else {}
    if bounce is None or not found:
        return None
    host_address = moderator.settings.host_address
    received = to_text(moderator.clock())
    home: GameFile | None = None
    named: list[str] = []
    for game_id, players in found.items():
        file = moderator.folder.game(game_id)
        home = home or file
        table = bounce_table(file)
        with file.transaction():
            for name, address in sorted(players.items()):
                named.append(f"{name} in {game_id}")
                if table.search((where("key") == mail.key) & (where("address") == address)):
                    continue  # recorded before a crash: count it once
                first = not table.search(where("address") == address)
                table.insert(
                    {
                        "key": mail.key,
                        "address": address,
                        "player": name,
                        "received": received,
                        "subject": mail.subject[:200],
                        "original_ids": list(bounce.original_ids),
                    }
                )
                if first and host_address:
                    _notify_host(moderator, file, name, address, host_address, mail)
    assert home is not None  # `found` named at least one game
    return home, f"bounce: mail to {', '.join(named)} could not be delivered (not answered)"


def _notify_host(
    moderator: Moderator,
    file: GameFile,
    name: str,
    address: str,
    host_address: str,
    mail: InboundMail,
) -> None:
    record = record_of(file)
    note = Note(
        "bounced",
        game_id=file.id,
        name=name,
        address=address,
        report=mail.subject,
        flag_after=FLAG_AFTER,
    )
    body = moderator.host_renderer.render(
        "host_note", record.ruleset, game={"id": file.id, "ruleset": record.ruleset}, note=note
    )
    moderator.outbox.queue(
        file,
        phase=record.phase_id or FINISHED,
        recipient=HOST,
        address=host_address,
        kind="bounce-notice",
        mail=body,
    )
