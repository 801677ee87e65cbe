"""The rules an order block must pass before its lines are read, one small function each
(docs/design.md: The desk's rules). A rule returns a `Refusal` naming itself, or None; the
first refusal stands, and its rule's name is kept with the mail in the ledger, so a host
asking why a block was refused finds the rule, and the rule its test."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar

from engine.errors import Wording
from pbp.game.stored import StoredGame
from pbp.game.judging.token_guard import TokenGuard
from pbp.ports import OrderBlock
from pbp.render.verdicts import Refused


@dataclass(frozen=True)
class Refusal:
    """Why a rule refused a block: the rule's name, the verdict the receipt words, and
    whether the block was meant (False: a form sent back with nothing filled in)."""

    rule: str
    verdict: Refused
    submission: bool = True


@dataclass(frozen=True)
class BlockCase:
    """What the rules look at: the block, its game, the sender's name there and their
    games, the guard that counts their wrong tokens, and the block as a refusal names it."""

    game: StoredGame
    name: str
    games: list[str]
    guard: TokenGuard
    token: str | None
    about: dict[str, str]


def _with_id(game: StoredGame, phase_id: str, in_block: bool = False) -> str | Wording:
    """A phase's words followed by its id (a ruleset that words nothing just gives the
    id), as a Wording the reader's language words, the phase by the glossary
    (docs/design.md: Refusals in every language)."""
    words = game.rules.card.phase_words(phase_id)
    if words == phase_id:
        return words
    if in_block:
        return Wording("%(phase)s (%(id)s in the block)", {"phase": words, "id": phase_id})
    return Wording("%(phase)s (%(id)s)", {"phase": words, "id": phase_id})


def open_phase_words(game: StoredGame) -> str | Wording:
    """The open phase as a player reads it, with the id a block names it by:
    "Day 2 — vote (D2-vote in the block)"."""
    return _with_id(game, game.open_phase.id, in_block=True)


# ------------------------------------------------------------------ identity (any block)
def names_a_game_of_the_sender(case: BlockCase) -> Refusal | None:
    """The block names a game the sender plays in (Reliability rules — Identity)."""
    if case.about["block_game"] in case.games:
        return None
    return Refusal(
        "names_a_game_of_the_sender", Refused("unknown_game", games=tuple(case.games), **case.about)
    )


def names_this_game(case: BlockCase) -> Refusal | None:
    """The block is for the game the mail was filed with (its home game)."""
    if case.about["block_game"] == case.game.id:
        return None
    return Refusal("names_this_game", Refused("other_game", game_id=case.game.id, **case.about))


def carries_a_token(case: BlockCase) -> Refusal | None:
    """The block has a TOKEN line."""
    return (
        None
        if case.token is not None
        else Refusal("carries_a_token", Refused("no_token", **case.about))
    )


def token_is_right(case: BlockCase) -> Refusal | None:
    """The token is the sender's: a wrong one counts against the address, the right one
    starts the count again (pbp.game.judging.token_guard)."""
    if (case.token or "").strip() == case.game.token(case.name):
        case.guard.note_right()
        return None
    case.guard.note_wrong()
    return Refusal(
        "token_is_right",
        Refused(
            "wrong_token",
            game_id=case.game.id,
            last_answered=case.guard.count == case.guard.limit,
            **case.about,
        ),
    )


IDENTITY_RULES: tuple[Callable[[BlockCase], Refusal | None], ...] = (
    names_a_game_of_the_sender,
    names_this_game,
    carries_a_token,
    token_is_right,
)


# ------------------------------------------------------------------ order blocks
@dataclass(frozen=True)
class OrderCase(BlockCase):
    """An order block's case: the block itself besides."""

    block: OrderBlock


def game_is_running(case: OrderCase) -> Refusal | None:
    """The game has an open phase (it is not over)."""
    if case.game.phase is not None:
        return None
    return Refusal("game_is_running", Refused("game_over", game_id=case.game.id, **case.about))


def phase_is_open(case: OrderCase) -> Refusal | None:
    """The block names the open phase: a resolved one is closed, any other does not exist."""
    game, phase = case.game, case.block.phase
    if phase.lower() == game.open_phase.id.lower():
        return None
    if phase in game.record.resolved:
        return Refusal(
            "phase_is_open",
            Refused(
                "closed_phase",
                phase_words=_with_id(game, phase),
                open_phase=open_phase_words(game),
                **case.about,
            ),
        )
    return Refusal(
        "phase_is_open", Refused("no_such_phase", open_phase=open_phase_words(game), **case.about)
    )


def sender_acts_now(case: OrderCase) -> Refusal | None:
    """The sender has orders to give in the open phase: the dead and the idle have none."""
    game = case.game
    if case.name in game.open_phase.actors:
        return None
    if not game.status(case.name).alive:
        return Refusal("sender_acts_now", Refused("dead", name=case.name, **case.about))
    words = game.rules.card.phase_words(game.open_phase.id)
    return Refusal("sender_acts_now", Refused("no_orders_to_give", phase_words=words, **case.about))


def form_is_filled(case: OrderCase) -> Refusal | None:
    """The block holds at least one order line (an empty form is not a submission)."""
    if case.block.has_orders:
        return None
    words = case.game.rules.card.phase_words(case.game.open_phase.id)
    return Refusal(
        "form_is_filled", Refused("empty_form", phase_words=words, **case.about), submission=False
    )


ORDER_RULES: tuple[Callable[[OrderCase], Refusal | None], ...] = (
    *IDENTITY_RULES,
    game_is_running,
    phase_is_open,
    sender_acts_now,
    form_is_filled,
)


Case = TypeVar("Case", bound=BlockCase)


def first_refusal(
    case: Case, rules: tuple[Callable[[Case], Refusal | None], ...]
) -> Refusal | None:
    """The refusal of the first rule `case` breaks, in order, or None when it keeps them all."""
    for rule in rules:
        refused = rule(case)
        if refused is not None:
            return refused
    return None
