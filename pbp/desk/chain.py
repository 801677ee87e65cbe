"""The desk's chain (docs/design.md: The desk's chain): the named handlers every inbound
mail passes through, in the order declared by `CHAIN` and nowhere else. Each handler either
answers the mail, records it and returns its outcome, which stops the chain, or returns
None and passes the mail on. The last one, the sender's game, answers every mail that
reaches it.

The order is the reasoning: a mail seen before is never judged twice; a bounce is no
one's mail; the host's address is checked before anything the host may do with it
(authentication, then NPC orders, then approvals, answers and help); sign-up commands come
from anyone; only then is the sender looked up on the rosters, and a stranger gets no
answer.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Protocol

from pbp.desk.bounces import file_bounce
from pbp.forum.publishing.approval_mail import host_mail
from pbp.game.stored import StoredGame
from pbp.host.authentication import unauthenticated_host_mail
from pbp.host.npc_mail import npc_orders_mail
from pbp.moderator import Moderator
from pbp.ports import InboundMail, Outcome
from pbp.signups.mail import signup_mail
from pbp.storage.mail_ledger import MailLedger


class DeskParts(Protocol):
    """What the handlers use of the desk (pbp.desk.Desk)."""

    moderator: Moderator
    ledger: MailLedger

    def may_reply(self, game: StoredGame, address: str) -> bool: ...

    def games_of(self, address: str) -> list[str]: ...

    def answer_game_mail(self, mail: InboundMail, games: list[str]) -> Outcome: ...


class Handler(NamedTuple):
    name: str
    handle: Callable[[DeskParts, InboundMail], Outcome | None]


def already_handled(desk: DeskParts, mail: InboundMail) -> Outcome | None:
    """A mail the ledger holds already (fetched again after a crash, or sent twice)."""
    return desk.ledger.earlier(mail)


def bounce(desk: DeskParts, mail: InboundMail) -> Outcome | None:
    """A delivery status notification for a player's address: filed, never answered."""
    if mail.bounce is None:
        return None
    filed = file_bounce(desk.moderator, mail)
    if filed is None:
        return None
    file, reason = filed
    return desk.ledger.record_refused(mail, reason, file)


def unauthenticated_host(desk: DeskParts, mail: InboundMail) -> Outcome | None:
    """The host's address failing sender authentication (pbp.host.authentication)."""
    return unauthenticated_host_mail(desk.moderator, desk.ledger, mail, desk.may_reply)


def npc_orders(desk: DeskParts, mail: InboundMail) -> Outcome | None:
    """The host's orders for an NPC (pbp.host.npc_mail)."""
    return npc_orders_mail(desk.moderator, desk.ledger, mail, desk.may_reply)


def host_approval(desk: DeskParts, mail: InboundMail) -> Outcome | None:
    """Anything else from the host: APPROVE, answers to players, help
    (pbp.forum.publishing.approval_mail)."""
    return host_mail(desk.moderator, desk.ledger, mail, desk.may_reply)


def signup(desk: DeskParts, mail: InboundMail) -> Outcome | None:
    """JOIN, LEAVE, WATCH, UNWATCH, CONFIRM from anyone (pbp.signups.mail)."""
    return signup_mail(desk.moderator, desk.ledger, mail, desk.may_reply)


def stranger(desk: DeskParts, mail: InboundMail) -> Outcome | None:
    """An address on no roster (or a From without exactly one): recorded, never answered."""
    if mail.sender and desk.games_of(mail.sender):
        return None
    reason = "From does not hold exactly one address" if mail.sender is None else "unknown sender"
    if mail.no_reply_reason:
        reason = f"{reason}; {mail.no_reply_reason}"
    return desk.ledger.record_refused(mail, reason)


def game_mail(desk: DeskParts, mail: InboundMail) -> Outcome:
    """A player's mail: judged for its home game and committed with its receipt."""
    return desk.answer_game_mail(mail, desk.games_of(mail.sender or ""))


CHAIN: tuple[Handler, ...] = (
    Handler("already handled", already_handled),
    Handler("bounce", bounce),
    Handler("unauthenticated host", unauthenticated_host),
    Handler("NPC orders", npc_orders),
    Handler("host approval", host_approval),
    Handler("sign-up", signup),
    Handler("stranger", stranger),
    Handler("game mail", game_mail),
)
