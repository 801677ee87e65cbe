"""Mail to and from the host (docs/design.md: The host's view, Public posts): the host's
address is `[forum] host_address` (`Settings.host_address`, "" when none is set), and the
outbox rows to the host are addressed to the recipient `HOST`. Every part of pbp that tells
or answers the host goes through here, below the features that do it."""
from __future__ import annotations

from typing import Callable

from pbp.game.stored import StoredGame
from pbp.game.token_guard import TokenGuard
from pbp.moderator import Moderator
from pbp.ports import InboundMail, RenderedMail

HOST = "host"  # the recipient of an outbox row to the host


def tell_host(moderator: Moderator, game: StoredGame, kind: str, mail: RenderedMail, phase: str | None = None) -> bool:
    """Queue a mail to the host (inside the game's transaction); False when no host
    address is set, so nothing went."""
    address = moderator.settings.host_address
    if not address:
        return False
    moderator.outbox.queue(game.file, phase=phase or game.filed_phase, recipient=HOST, address=address,
                           kind=kind, mail=mail)
    return True


def answer_host(moderator: Moderator, game: StoredGame, mail: InboundMail, kind: str, text: str | None,
                may_reply: Callable[[StoredGame, str], bool], fallback_subject: str) -> None:
    """Queue pbp's answer to a mail from the host (call inside the game's transaction). The
    host's address is capped per day like every other, so an autoresponder that marks
    nothing still stops after the cap (docs/design.md: Hostile input); automatic mail is
    never answered. No `text` (None or empty): nothing to say."""
    host = moderator.settings.host_address
    if not text or not host or mail.no_reply_reason or not may_reply(game, host):
        return
    moderator.outbox.queue(game.file, phase=game.filed_phase, recipient=HOST, address=host,
                           kind=kind, mail=RenderedMail(f"Re: {mail.subject}" if mail.subject else fallback_subject,
                                                        text + "\n"),
                           in_reply_to=mail.message_id, references=mail.references)


def tell_host_of_wrong_tokens(moderator: Moderator, game: StoredGame, guard: TokenGuard) -> None:
    """Tell the host, once per address and day, that an address reached the day's limit of
    wrong tokens (call inside the game's transaction; `pbp status` lists it anyway)."""
    body = (f"{guard.address} sent {guard.count} wrong tokens for game {game.id} on {guard.day} (UTC). Someone "
            "may be guessing a token, or forging that address: its further wrong tokens today go unanswered, "
            "so pbp does not flood the address with refusals. Its right token still works. "
            f"`pbp status {game.id}` shows this too.\n")
    tell_host(moderator, game, "wrong-tokens", RenderedMail(f"[{game.id}] Wrong tokens from {guard.address}", body))
