"""What pbp mails about the thread's posts (docs/design.md: Public posts — votes in the
thread): a player's receipt or refusal for a vote they posted, and the host's notes (votes
not counted: by the dead, the silenced, accounts of no player, edits after the deadline).

A post is hostile input, so nothing from it reaches a mail header (subjects are fixed
words and the game's id), a line of it is quoted at most `MAX_QUOTED_CHARS` long, every
body is wrapped to 72 columns, and mail about posts counts against the same daily cap of
replies per address as mail answers (`replies_per_sender_per_day`): a thread full of
votes cannot make pbp flood a player. Each mail is a verdict value worded by a macro of
templates/mail/_verdicts.j2 (docs/design.md: Extension points).
"""

from __future__ import annotations

from typing import Sequence

from pbp.game.notifying.host_contact import host_note, tell_host
from pbp.game.notifying.reply_cap import may_reply
from pbp.game.stored import StoredGame
from pbp.mail.limits import listed
from pbp.mail.wrapping import wrap_mail
from pbp.moderator import Moderator
from pbp.ports import RenderedMail
from pbp.render.verdicts import Note, Verdict
from pbp.storage.drafts import DraftBook

NOTES_KEY = (  # game forum settings: {"count": n, "phase": id, "notes": [...], "dropped": n}
    "thread_notes"
)
MAX_KEPT_PER_PHASE = 200


def tell_player(
    moderator: Moderator, game: StoredGame, player: str, kind: str, note: Verdict
) -> bool:
    """Queue a mail about the thread to `player` (inside the game's transaction), `note` in
    templates/mail/player_note.j2; False when the player is no roster player or the day's
    cap is reached."""
    entry = game.roster.by_name(player)
    if entry is None or not may_reply(moderator, game.file, entry.email):
        return False
    moderator.outbox.queue(
        game.file,
        phase=game.filed_phase,
        recipient=entry.name,
        address=entry.email,
        kind=kind,
        mail=wrap_mail(player_note(moderator, game, note, entry.name)),
    )
    return True


def player_note(moderator: Moderator, game: StoredGame, note: Verdict, player: str) -> RenderedMail:
    """`note` to the player of character `player` in templates/mail/player_note.j2, worded
    by its macro, in their language."""
    return game.renderer_of(moderator, player).render(
        "player_note", game.record.ruleset, game=game.game_facts(), note=note
    )


_NOT_COUNTED = {
    "late": "posted after the deadline",
    "early": "posted before the phase opened",
    "silenced": "silenced for the day (a silenced player votes by mail)",
    "mid_line": "the order is mid-line, not on a line of its own",
    "nothing_to_take_back": "there is nothing to take back",
}


def not_counted_note(player: str, where: str, said: str, reason: str, error: str = "") -> str:
    """The host's line for a player's post that was not counted, with its reason (`reason`,
    a case of the macro thread_vote_not_counted; `error`: the order's own error)."""
    return (
        f'{player}\'s {where} "{said}" was not counted:'
        f" {_NOT_COUNTED.get(reason) or error.rstrip('.')}."
    )


def note_for_host(moderator: Moderator, game: StoredGame, notes: Sequence[str]) -> None:
    """Keep the notes for `pbp status` (a count over the game, and every note of the open
    phase, at most MAX_KEPT_PER_PHASE of them) and mail them to the host in one mail (at
    most ten listed), inside the game's transaction."""
    if not notes:
        return
    book = DraftBook(game.file)
    kept = book.game_settings().get(NOTES_KEY, {"count": 0})
    phase = game.phase.id if game.phase else ""
    listed_now = kept.get("notes", []) if kept.get("phase") == phase else []
    room = max(0, MAX_KEPT_PER_PHASE - len(listed_now))
    dropped = (kept.get("dropped", 0) if kept.get("phase") == phase else 0) + max(
        0, len(notes) - room
    )
    book.update_game_settings(
        {
            NOTES_KEY: {
                "count": kept["count"] + len(notes),
                "phase": phase,
                "notes": [*listed_now, *notes[:room]],
                "dropped": dropped,
            }
        }
    )
    note = Note("thread_notes", game_id=game.id, notes=tuple(listed(list(notes))))
    tell_host(moderator, game, "thread-notes", wrap_mail(host_note(moderator, game, note)))


def host_note_lines(game: StoredGame) -> list[str]:
    """The notes for `pbp status`: one list of every post not counted in the open phase,
    each with its reason, and how many over the whole game."""
    kept = DraftBook(game.file).game_settings().get(NOTES_KEY)
    if not kept or not kept["count"]:
        return []
    phase = game.phase.id if game.phase else ""
    notes = kept.get("notes", []) if kept.get("phase") == phase else []
    dropped = kept.get("dropped", 0) if notes else 0
    words = game.rules.card.phase_words(phase) if phase else "the game"
    head = (
        f"  posts in the thread not counted in {words}: {len(notes) + dropped}"
        f" ({kept['count']} in the whole game)"
    )
    return [
        head,
        *(f"    - {note}" for note in notes),
        *([f"    … and {dropped} more, in the host's mail"] if dropped else []),
    ]
