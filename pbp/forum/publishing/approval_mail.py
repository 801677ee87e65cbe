"""The host's APPROVE by mail (docs/design.md: Public posts; host review): a mail from
`[forum] host_address` approves a draft with the game's host token, or gets help. Its
identity goes into the same mail ledger as every player's mail."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pbp.conversations.host_side import host_messages
from pbp.errors import UserError
from pbp.forum.publishing import review
from pbp.storage.drafts import DraftBook
from pbp.game.notifying.host_contact import answer_host, tell_host_of_wrong_tokens
from pbp.game.stored import StoredGame, load
from pbp.storage.mail_ledger import MailLedger
from pbp.moderator import Moderator
from pbp.ports import InboundMail, Outcome
from pbp.render.verdicts import Accepted, Note, Refused, Verdict, error_facts
from pbp.game.judging.token_guard import TokenGuard
from pbp.storage.host_token import host_token


@dataclass(frozen=True)
class Approval:
    """One approval found in a host's mail: `APPROVE` inside a draft's block, or an
    `APPROVE <game> <phase> [<token>]` line (with the token there or on a `TOKEN:` line)."""

    game: str
    phase: str
    token: str | None


def approvals_in(mail: InboundMail) -> list[Approval]:
    found = [
        Approval(b.game, b.phase, b.token)
        for b in mail.blocks
        if any(line.strip().upper() == "APPROVE" for line in b.lines)
    ]
    for command in mail.commands:
        words = command.split()
        if len(words) >= 3 and words[0].upper() == "APPROVE":
            found.append(Approval(words[1], words[2], words[3] if len(words) > 3 else None))
    return found


def host_mail(
    moderator: Moderator,
    ledger: MailLedger,
    mail: InboundMail,
    may_reply: Callable[[StoredGame, str], bool],
) -> Outcome | None:
    """Handle a mail from the host's address, or return None when it is not one.

    An approval (`approvals_in`: a line `APPROVE <game> <phase>` with the game's host token
    on it or on a `TOKEN:` line, or the draft's block with `APPROVE` un-commented) approves
    that draft (leak-checked: a draft that fails needs `pbp draft approve --force`). A
    missing or wrong token is refused, and wrong tokens count against the address like a
    player's (pbp.game.judging.token_guard: the right token always works); anything else gets help.
    """
    host = moderator.settings.host_address
    if not host or mail.sender != host:
        return None
    if (
        mail.messages
    ):  # the host answering a player, or writing as an NPC (docs/design.md: Conversations)
        return host_messages(moderator, ledger, mail, may_reply)
    folder = moderator.folder
    games = folder.game_ids()
    approvals = approvals_in(mail)
    named = [a.game for a in approvals] + [b.game for b in mail.blocks]
    target = next((g for g in named if g in games), None) or (games[-1] if games else None)
    if target is None:
        return ledger.record_refused(mail, "host mail with no game to act on")
    game = load(moderator, target)
    book = DraftBook(game.file)
    outcome: Outcome = "rejected"
    reason = "host mail without an approval"
    verdict: Verdict | None
    approval = next((a for a in approvals if a.game == target), None)
    with game.file.transaction():
        if approval is not None:
            # The phase as the host typed it; drafts are keyed by the exact phase id.
            phase = next(
                (r.phase for r in book.all() if r.phase.lower() == approval.phase.lower()),
                approval.phase,
            )
            guard = TokenGuard(
                game.file,
                mail.sender,
                moderator.clock().date(),
                moderator.settings.wrong_tokens_per_sender_per_day,
            )
            if not approval.token:
                reason = "approval without the host token"
                verdict = Refused("approval_without_token", game_id=target, phase=approval.phase)
            elif approval.token.strip() != host_token(game.file):
                guard.note_wrong()
                reason = "wrong host token"
                verdict = Refused("approval_wrong_token", game_id=target, phase=approval.phase)
                if guard.unanswered:
                    reason, verdict = "wrong host token past the daily limit, not answered", None
            else:
                guard.note_right()
                try:
                    approved = review.approve(game, phase)
                    outcome, reason = "processed", f"approved {phase}"
                    verdict = Accepted("approved", game_id=target, phase=approved.phase)
                except UserError as error:
                    reason, verdict = (
                        f"approval refused: {error}",
                        Refused("not_approved", **error_facts(error)),
                    )
            guard.save(game.file)
            if guard.newly_over_limit:
                tell_host_of_wrong_tokens(moderator, game, guard)
        else:
            waiting = book.unpublished()
            phase = waiting[0].phase if waiting else game.filed_phase
            verdict = Note("no_approval", game_id=target, phase=phase)
        answer_host(moderator, game, mail, "host-reply", [verdict] if verdict else [], may_reply)
        row = ledger.record(game.file, mail, outcome, reason)
    ledger.remember(row)
    return outcome
