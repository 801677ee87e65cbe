"""The thread's last read before a phase resolves (docs/design.md: Public posts — votes in
the thread): a phase whose public orders come from the thread resolves only once pbp has
read the thread after the deadline, so every vote posted in time is counted.

If the forum cannot be read then, the resolution waits: the host is told at once (mail
to `[forum] host_address`, `pbp status`), pbp tries again after a minute, then doubling
up to ten minutes (the index of deadlines names the game again at the next try, so the
daemon neither spins nor forgets it), and `pbp advance <game> --without-thread` resolves
with the votes read so far. The resolution itself reads only stored orders; this gate
only decides when it may run (pbp.daemon.cycle, pbp.commands.advance).
"""

from __future__ import annotations

from typing import Any

from pbp.game.tally import has_public_orders
from pbp.game.notifying.host_contact import host_note, tell_host
from pbp.game.stored import StoredGame
from pbp.game.vote_channels import takes_from_thread
from pbp.mail.wrapping import wrap_mail
from pbp.moderator import Moderator
from pbp.render.verdicts import Note
from pbp.schedule import Backoff
from pbp.storage.datafolder import GameFile
from pbp.storage.drafts import DraftBook
from pbp.timezones import render_timestamp

FINAL_KEY = "final_read"  # game forum settings: {phase, error, since, retry_at, attempts}
RETRY = Backoff(
    first=60.0, longest=600.0
)  # a minute after the first failure, doubling, at most ten


def needs_final_read(game: StoredGame) -> bool:
    """Whether the open phase takes public orders from a thread pbp knows."""
    return (
        game.phase is not None
        and takes_from_thread(game.votes)
        and has_public_orders(game.rules.card, game.phase)
        and bool(DraftBook(game.file).game_settings().get("thread"))
    )


def final_read_retry(game_file: GameFile, phase: str) -> float | None:
    """When the waiting resolution of `phase` tries the thread again, or None."""
    waiting = DraftBook(game_file).game_settings().get(FINAL_KEY)
    return float(waiting["retry_at"]) if waiting and waiting.get("phase") == phase else None


def waiting_reason(game_file: GameFile, phase: str) -> str:
    """The host's sentence on a resolution that waits for the thread, or ""."""
    waiting = DraftBook(game_file).game_settings().get(FINAL_KEY)
    if not waiting or waiting.get("phase") != phase:
        return ""
    since = render_timestamp(waiting["since"])  # as every time in a host's listing
    return (
        f"RESOLUTION WAITS for the thread, unreadable since {since}:"
        f" {waiting['error'].rstrip('.')}; pbp tries again, or `pbp advance {game_file.id}"
        " --without-thread` resolves with the votes read so far"
    )


def read_failed(moderator: Moderator, game: StoredGame, error: str) -> str:
    """Note that the last read failed (tell the host the first time for this phase) and
    return why the resolution waits."""
    book = DraftBook(game.file)
    phase = game.open_phase.id
    now = moderator.clock()
    earlier = book.game_settings().get(FINAL_KEY)
    waiting: dict[str, Any] = earlier if earlier and earlier.get("phase") == phase else {}
    first = not waiting
    attempts = int(waiting.get("attempts", 0)) + 1
    with game.file.transaction():
        book.update_game_settings(
            {
                FINAL_KEY: {
                    "phase": phase,
                    "error": error[:300],
                    "attempts": attempts,
                    "retry_at": now.timestamp() + RETRY.seconds(attempts),
                    "since": waiting.get("since") or now.isoformat(" ", "seconds"),
                }
            }
        )
        if first:
            note = Note(
                "thread_unreadable",
                game_id=game.id,
                phase_words=game.rules.card.phase_words(phase),
                error=error[:300],
            )
            tell_host(
                moderator, game, "thread-unreadable", wrap_mail(host_note(moderator, game, note))
            )
    return waiting_reason(game.file, phase)


def read_done(game: StoredGame) -> None:
    """The phase's last read succeeded (inside the read's transaction)."""
    book = DraftBook(game.file)
    if book.game_settings().get(FINAL_KEY):
        book.update_game_settings({FINAL_KEY: None})
