"""What one mail does to its home game, as a value (docs/design.md: Order mail format):
the `Decision` the desk's judging computes before anything is written, and the receipt
that answers it, built from verdict values (pbp.render.verdicts) that
templates/mail/_verdicts.j2 words."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbp.conversations.judge import Delivery
from pbp.game.judging.token_guard import TokenGuard
from pbp.game.order_row import OrderRow
from pbp.game.stored import StoredGame
from pbp.moderator import Moderator
from pbp.ports import Outcome, RenderedMail
from pbp.render.moments import render_received
from pbp.render.verdicts import Note, Verdict


@dataclass
class Decision:
    """What one mail does to its home game, computed before anything is written."""

    outcome: Outcome
    reason: str = ""
    orders: list[OrderRow] = field(default_factory=list)
    reply: RenderedMail | None = None
    reply_kind: str = ""
    token_guard: TokenGuard | None = None
    deliveries: list[Delivery] = field(default_factory=list)  # accepted messages, relayed on commit
    judged: list[str] = field(
        default_factory=list
    )  # the blocks judged for the home game (block_choice.judged_entry)
    refused_by: list[str] = field(
        default_factory=list
    )  # the named rules that refused (kept in the ledger)
    language: str = ""  # the language the player reads from now on (`LANGUAGE de`), "" unchanged


def receipt(
    moderator: Moderator, game: StoredGame, name: str, headline: str, notes: list[Verdict]
) -> RenderedMail:
    """The receipt: `headline` (a kind of the macro `headline` of mail/_verdicts.j2) and
    each verdict in words, then the form."""
    return game.renderer_of(moderator, name).render(
        "receipt",
        game.record.ruleset,
        game=game.game_facts(),
        player=name,
        phase=game.filed_phase,
        headline=headline,
        notes=notes,
        form=game.form(name),
    )


def still_stands(game: StoredGame, name: str, some_accepted: bool) -> Note:
    """Which of the sender's orders count after a refusal: those accepted above, the
    earlier ones, or none yet."""
    if some_accepted:
        return Note("still_stands", some_accepted=True)
    phase = game.record.phase_id
    if phase and not game.status(name).alive:  # the dead give no orders, now or later
        return Note(
            "still_stands", some_accepted=False, earlier_received="", for_what="", dead=True
        )
    earlier = game.latest_order(phase, name) if phase else None
    if earlier:
        received = render_received(
            earlier.received, game.zone_of(name), game.roster.language_of(name)
        )
        return Note("still_stands", some_accepted=False, earlier_received=received)
    for_what = game.rules.card.phase_words(phase) if phase else "this game"
    return Note("still_stands", some_accepted=False, earlier_received="", for_what=for_what)
