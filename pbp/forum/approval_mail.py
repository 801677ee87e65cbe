"""The host's APPROVE by mail (docs/design.md: Public posts; host review): a mail from
`[forum] host_address` approves a draft with the game's host token, or gets help. Its
identity goes into the same mail ledger as every player's mail."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pbp.conversations.host_side import host_messages
from pbp.errors import UserError
from pbp.forum import review
from pbp.storage.drafts import DraftBook
from pbp.forum.hooks import approval_form
from pbp.game.host_contact import answer_host, tell_host_of_wrong_tokens
from pbp.game.stored import StoredGame, load
from pbp.storage.inbound_ledger import MailLedger
from pbp.moderator import Moderator
from pbp.ports import InboundMail, Outcome
from pbp.game.token_guard import TokenGuard

# In prose on purpose: a line of its own reading `APPROVE <game> <phase>` would be taken for
# an approval when the host's reply carries this mail unquoted (some clients do).
HOST_HELP = ("pbp understood no approval in your mail. To approve a draft, reply with a line saying "
             "APPROVE, the game and the phase (for example: APPROVE ww1 D2-vote) and a line saying TOKEN: "
             "and the host token from the draft's mail; the token may also follow the phase on the "
             "APPROVE line. Or reply with the draft's block below, its line APPROVE un-commented:\n\n")


@dataclass(frozen=True)
class Approval:
    """One approval found in a host's mail: `APPROVE` inside a draft's block, or an
    `APPROVE <game> <phase> [<token>]` line (with the token there or on a `TOKEN:` line)."""

    game: str
    phase: str
    token: str | None


def approvals_in(mail: InboundMail) -> list[Approval]:
    found = [Approval(b.game, b.phase, b.token) for b in mail.blocks
             if any(line.strip().upper() == "APPROVE" for line in b.lines)]
    for command in mail.commands:
        words = command.split()
        if len(words) >= 3 and words[0].upper() == "APPROVE":
            found.append(Approval(words[1], words[2], words[3] if len(words) > 3 else None))
    return found


def host_mail(moderator: Moderator, ledger: MailLedger, mail: InboundMail,
              may_reply: Callable[[StoredGame, str], bool]) -> Outcome | None:
    """Handle a mail from the host's address, or return None when it is not one.

    An approval (`approvals_in`: a line `APPROVE <game> <phase>` with the game's host token
    on it or on a `TOKEN:` line, or the draft's block with `APPROVE` un-commented) approves
    that draft (leak-checked: a draft that fails needs `pbp draft approve --force`). A
    missing or wrong token is refused, and wrong tokens count against the address like a
    player's (pbp.game.token_guard: the right token always works); anything else gets help."""
    host = moderator.settings.host_address
    if not host or mail.sender != host:
        return None
    if mail.messages:  # the host answering a player, or writing as an NPC (docs/design.md: Conversations)
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
    reason, reply = "host mail without an approval", None
    approval = next((a for a in approvals if a.game == target), None)
    with game.file.transaction():
        if approval is not None:
            # The phase as the host typed it; drafts are keyed by the exact phase id.
            phase = next((r["phase"] for r in book.all() if r["phase"].lower() == approval.phase.lower()),
                         approval.phase)
            guard = TokenGuard(game.file, mail.sender, moderator.clock().date(),
                               moderator.settings.wrong_tokens_per_sender_per_day)
            if not approval.token:
                reason = "approval without the host token"
                reply = (f"Refused: your approval of {target} {approval.phase} has no host token. Put the "
                         f"token from the draft's mail on a line TOKEN: <token> under the APPROVE line, or "
                         f"after it: APPROVE {target} {approval.phase} <token>.")
            elif approval.token.strip() != book.host_token():
                guard.note_wrong()
                reason = "wrong host token"
                reply = (f"Refused: the TOKEN in your approval of {target} {approval.phase} is not this game's "
                         f"host token. Reply to the draft's own mail, which holds the right token.")
                if guard.unanswered:
                    reason, reply = "wrong host token past the daily limit, not answered", None
            else:
                guard.note_right()
                try:
                    row = review.approve(game, phase)
                    outcome, reason = "processed", f"approved {phase}"
                    reply = f"Approved the post for {target} {row['phase']}; it will be published shortly."
                except UserError as error:
                    reason, reply = f"approval refused: {error}", f"Not approved: {error}"
            guard.save(game.file)
            if guard.newly_over_limit:
                tell_host_of_wrong_tokens(moderator, game, guard)
        else:
            phase = (book.unpublished() or [{"phase": game.filed_phase}])[0]["phase"]
            reply = HOST_HELP + approval_form(target, phase, "<the host token from the draft's mail>")
        answer_host(moderator, game, mail, "host-reply", reply, may_reply, f"[{target}] pbp")
        row = ledger.record(game.file, mail, outcome, reason)
    ledger.remember(row)
    return outcome
