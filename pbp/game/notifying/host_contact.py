"""Mail to and from the host (docs/design.md: The host's view, Public posts): the host's
address is `[forum] host_address` (`Settings.host_address`, "" when none is set), and the
outbox rows to the host are addressed to the recipient `HOST`. Every part of pbp that tells
or answers the host goes through here, below the features that do it."""

from __future__ import annotations

from typing import Callable, Sequence

from pbp.game.stored import StoredGame
from pbp.game.judging.token_guard import TokenGuard
from pbp.moderator import Moderator
from pbp.mail.header_values import reply_subject
from pbp.ports import InboundMail, RenderedMail
from pbp.render.verdicts import Note, Verdict

HOST = "host"  # the recipient of an outbox row to the host


def tell_host(
    moderator: Moderator, game: StoredGame, kind: str, mail: RenderedMail, phase: str | None = None
) -> bool:
    """Queue a mail to the host (inside the game's transaction); False when no host
    address is set, so nothing went."""
    address = moderator.settings.host_address
    if not address:
        return False
    moderator.outbox.queue(
        game.file,
        phase=phase or game.filed_phase,
        recipient=HOST,
        address=address,
        kind=kind,
        mail=mail,
    )
    return True


def answer_host(
    moderator: Moderator,
    game: StoredGame,
    mail: InboundMail,
    kind: str,
    verdicts: Sequence[Verdict],
    may_reply: Callable[[StoredGame, str], bool],
) -> None:
    """Queue pbp's answer to a mail from the host (call inside the game's transaction):
    the verdicts, each worded by templates/mail/_verdicts.j2, in templates/mail/host_reply.j2.
    The host's address is capped per day like every other, so an autoresponder that marks
    nothing still stops after the cap (docs/design.md: Hostile input); automatic mail is
    never answered."""
    host = moderator.settings.host_address
    if not verdicts or not host or mail.no_reply_reason or not may_reply(game, host):
        return
    reply = moderator.host_renderer.render(
        "host_reply",
        game.record.ruleset,
        game=game.game_facts(),
        reply_kind=kind,
        reply_to=reply_subject(mail.subject) if mail.subject else "",
        verdicts=verdicts,
    )
    moderator.outbox.queue(
        game.file,
        phase=game.filed_phase,
        recipient=HOST,
        address=host,
        kind=kind,
        mail=reply,
        in_reply_to=mail.message_id,
        references=mail.references,
    )


def tell_host_of_wrong_tokens(moderator: Moderator, game: StoredGame, guard: TokenGuard) -> None:
    """Tell the host, once per address and day, that an address reached the day's limit of
    wrong tokens (call inside the game's transaction; `pbp status` lists it anyway)."""
    note = Note(
        "wrong_tokens",
        game_id=game.id,
        address=guard.address,
        count=guard.count,
        day=str(guard.day),
    )
    tell_host(moderator, game, "wrong-tokens", host_note(moderator, game, note))


def host_note(moderator: Moderator, game: StoredGame, note: Verdict) -> RenderedMail:
    """`note` to the host, unasked, in templates/mail/host_note.j2: its subject and body
    worded by the macros of its kind in templates/mail/_verdicts.j2."""
    return moderator.host_renderer.render(
        "host_note", game.record.ruleset, game=game.game_facts(), note=note
    )
