"""The host's mail is held to the players' rule (docs/design.md: Real mail providers —
sender authentication): with `[pbp] trusted_authserv_id` set, a mail from
`[forum] host_address` that the receiving server could not authenticate changes nothing —
no approval, no NPC orders, no answer to a player — whatever its token, and the host is
told why at the host address."""

from __future__ import annotations

from typing import Callable

from pbp.game.notifying.host_contact import answer_host
from pbp.game.stored import StoredGame, load
from pbp.mail.sender_auth import refusal
from pbp.storage.mail_ledger import MailLedger
from pbp.moderator import Moderator
from pbp.ports import InboundMail, Outcome
from pbp.render.verdicts import Refused


def unauthenticated_host_mail(
    moderator: Moderator,
    ledger: MailLedger,
    mail: InboundMail,
    may_reply: Callable[[StoredGame, str], bool],
) -> Outcome | None:
    """Refuse a mail from the host's address that fails sender authentication, or return
    None (not the host's, authentication off, or it passes)."""
    host = moderator.settings.host_address
    trusted_id = moderator.settings.trusted_authserv_id
    if not host or mail.sender != host or not trusted_id:
        return None
    why = refusal(mail.authentication_results, mail.sender, trusted_id)
    if why is None:
        return None
    reason = f"host mail, sender not authenticated: {why}"
    games = moderator.folder.game_ids()
    named = (
        [block.game for block in mail.blocks]
        + [message.game for message in mail.messages]
        + [command.split()[1] for command in mail.commands if len(command.split()) > 1]
    )
    target = next((game for game in named if game in games), None) or (games[-1] if games else None)
    if target is None:
        return ledger.record_refused(mail, reason)
    game = load(moderator, target)
    with game.file.transaction():
        answer_host(
            moderator,
            game,
            mail,
            "host-reply",
            [Refused("host_not_authenticated", why=why)],
            may_reply,
        )
        row = ledger.record(game.file, mail, "rejected", reason)
    ledger.remember(row)
    return "rejected"
