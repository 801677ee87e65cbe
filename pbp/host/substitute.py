"""A newcomer takes over a character (docs/design.md: Command line).

Substitution and names (a decision the rules leave open): a character keeps its name for
the whole game. The engine state, the order grammar, the public thread and the tokens all
use the character's name; a substitute takes over the character (role, history, a new
token) under that name, and the roster entry records who plays it now (`played_by`) and
who played it before (`replaced`). So orders still say `VOTE Alice` after Carol has taken
over Alice; the public notice says so. Nothing in the engine state is renamed, which keeps
replays exact and keeps every earlier post and report meaningful.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine import name_problem
from engine.core import closest
from engine.names import look_alike
from pbp.errors import UserError
from pbp.game.notifying.notices import log_host_action, notify_players
from pbp.game.record import GameRecord
from pbp.game.record_parts import RosterPlayer
from pbp.game.record_parts import HostAction
from pbp.game.judging.token_guard import new_token
from pbp.game.stored import StoredGame, load, running, save
from pbp.host.digest import channel_history, current_orders, private_history
from pbp.host.replay import ReplayError
from pbp.moderator import Moderator
from pbp.render.verdicts import Note
from pbp.storage.outbox_queue import FAILED, QUEUED
from pbp.game.roster_file import normalise_address
from pbp.game.notifying.welcome import welcome_facts
from pbp.render.languages import language_problem
from pbp.timezones import zone_problem


def _newcomer_address(
    record: GameRecord, entry: RosterPlayer, newcomer: str, new_email: str, timezone: str | None
) -> str:
    """The newcomer's address, once their name, address and time zone are found fit to take
    over `entry`; each misfit is refused in one sentence, and nothing is changed."""
    game_id = record.id
    if timezone is not None and zone_problem(timezone):
        raise UserError(zone_problem(timezone))
    if not newcomer:
        raise UserError(
            "Give the newcomer's name, e.g. pbp substitute g1 Alice Carol carol@example.org."
        )
    problem = _newcomer_name_problem(record, entry, newcomer)
    if problem:
        raise UserError(problem)
    address = normalise_address(new_email)
    if address is None:
        raise UserError(f"{new_email!r} is not an email address like name@example.org.")
    if record.roster.by_address(address) is not None:
        raise UserError(
            f"{address} is already on the roster of {game_id}; give the newcomer's own address."
        )
    if address in record.watchers:
        raise UserError(
            f"{address} watches {game_id} and has seen every role and night action, so cannot "
            "be dealt in; choose another newcomer."
        )
    return address


def _welcome(
    moderator: Moderator,
    game: StoredGame,
    after: StoredGame,
    character: str,
    token: str,
    address: str,
    newcomer: dict[str, Any],
) -> None:
    """Queue the newcomer's welcome: the character's role, its new token and form, and the
    digest of what it was told before (`newcomer`)."""
    mail = after.renderer_of(moderator, character).render(
        "welcome",
        after.record.ruleset,
        game=after.game_facts(),
        player=character,
        token=token,
        view=after.rules.view(after.state, character),
        form=after.form(character),
        substitute=newcomer,
        **welcome_facts(after, character),
    )
    moderator.outbox.queue(
        game.file,
        phase=game.record.phase_id,
        recipient=character,
        address=address,
        kind="welcome",
        mail=mail,
    )


def substitute(
    moderator: Moderator,
    game_id: str,
    old: str,
    new_name: str,
    new_email: str,
    timezone: str | None = None,
    forum_name: str | None = None,
    language: str | None = None,
) -> str:
    """A newcomer takes over character `old`: new address, new token (the old one stops
    working), a welcome with the character's role, a digest of what it was told
    privately and its orders already in (pbp.host.digest); the leaving player gets a
    goodbye, every other player a public notice. Returns the new token.

    `timezone` is the newcomer's roster time zone, in which their deadlines are shown;
    None keeps the old player's (a decision the design leaves open: the host says so when
    the newcomer lives elsewhere). `forum_name` is the newcomer's forum account, which the
    thread watch follows from now on; None leaves the character with none, since the old
    player's account no longer speaks for it.

    Mail queued for the old player but not yet sent (`--no-send`, an SMTP retry) is
    withdrawn, never delivered: from the substitution on, the old address gets nothing."""
    game = running(moderator, game_id)
    record = game.record
    entry = _roster_entry(record, old)
    newcomer = new_name.strip()
    if language is not None and language_problem(language):  # None: the old player's language
        raise UserError(f"--language: {language_problem(language)}")
    address = _newcomer_address(record, entry, newcomer, new_email, timezone)
    character = entry.name
    token = new_token()
    handed = entry.handed_to(
        newcomer,
        address,
        None if timezone is None else timezone.strip(),
        (forum_name or "").strip(),
    )
    handed = replace(handed, language=language) if language is not None else handed
    leaving = entry.player
    digest = _digest(game, character)
    with game.file.transaction():
        _withdraw_unsent(game, entry.email, character)
        _say_goodbye(moderator, game, entry, newcomer)
        _hand_over(moderator, game, handed, token, newcomer, leaving)
        after = load(moderator, game_id)
        _welcome(moderator, game, after, character, token, address, {"name": newcomer, **digest})
        _announce(moderator, game, after, character, newcomer, leaving)
    return token


def _announce(
    moderator: Moderator,
    game: StoredGame,
    after: StoredGame,
    character: str,
    newcomer: str,
    leaving: str,
) -> None:
    """Tell the listeners (the forum drafts the public post) and every other player that
    `newcomer` now plays `character` in `leaving`'s place."""
    substitution = [
        {
            "kind": "substitution",
            "data": {"character": character, "played_by": newcomer, "replaced": leaving},
        }
    ]
    for listener in moderator.after_host_action:
        listener(moderator, game, after, substitution)
    others = {name for name in game.record.roster.names if name != character}
    notify_players(
        moderator,
        after,
        "notice",
        Note("substituted", character=character, newcomer=newcomer),
        only=others,
    )


def _say_goodbye(
    moderator: Moderator, game: StoredGame, entry: RosterPlayer, newcomer: str
) -> None:
    """Queue the leaving player's goodbye, in their language, to their address."""
    record = game.record
    goodbye = moderator.renderer_for(entry.language).render(
        "goodbye",
        record.ruleset,
        game=game.game_facts(),
        player=entry.player,
        character=entry.name,
        newcomer=newcomer,
    )
    moderator.outbox.queue(
        game.file,
        phase=record.phase_id,
        recipient=entry.player,
        address=entry.email,
        kind="goodbye",
        mail=goodbye,
    )


def _hand_over(
    moderator: Moderator,
    game: StoredGame,
    handed: RosterPlayer,
    token: str,
    newcomer: str,
    leaving: str,
) -> None:
    """Store the roster with the newcomer in the character's place and the character's new
    token, and log the substitution among the host's actions."""
    record = game.record
    character = handed.name
    save(
        game,
        replace(
            record,
            roster=record.roster.with_player(handed),
            tokens={**record.tokens, character: token},
        ),
    )
    log_host_action(
        game,
        HostAction(
            "substitute", game.open_phase.id, player=character, played_by=newcomer, replaced=leaving
        ),
        moderator,
    )


def _newcomer_name_problem(record: GameRecord, entry: RosterPlayer, name: str) -> str | None:
    """Why a substitute may not be called `name`, or None: the roster's name rules
    (docs/design.md: Command line; engine.names) and no clash (ignoring case and accents,
    or looking alike) with another character's name, the player now playing it, or an NPC.
    The character being handed over is left out: its old name stays the character's,
    whoever plays it."""
    problem = name_problem(name)
    if problem:
        return f"The newcomer's name is refused: {problem}."
    taken = list(record.npc_names)
    for other in record.roster:
        if other.name != entry.name:
            taken += [used for used in (other.name, other.played_by) if used]
    clash = next((used for used in taken if look_alike(name, used)), None)
    if clash is not None:
        return (
            f"The newcomer's name {name!r} is already taken in game {record.id} by {clash!r} (names"
            " must differ ignoring case and accents, and must not look alike); give the newcomer"
            " another name."
        )
    return None


def _withdraw_unsent(game: StoredGame, address: str, character: str) -> None:
    """Mark every mail still queued for `address` as not sent, with the reason (shown by
    `pbp status`): it holds the old token and was meant for a player who left."""
    game.file.outbox.update(
        {
            "status": FAILED,
            "error": f"withdrawn: {character} was handed to a substitute before it went out",
        },
        cond=lambda row: row["status"] == QUEUED and row["address"] == address,
    )


def _roster_entry(record: GameRecord, name: str) -> RosterPlayer:
    entry = record.roster.by_name(name)
    if entry is None:
        guess = closest(name, record.roster.names)
        hint = (
            f"did you mean {guess}?"
            if guess
            else f"the players are: {', '.join(record.roster.names)}."
        )
        raise UserError(f"There is no player {name!r} in game {record.id}; {hint}")
    return entry


def _digest(game: StoredGame, character: str) -> dict[str, Any]:
    """What the newcomer's welcome tells of the character's past: `history` (private
    events by phase, or None when the log does not replay), `channels` (its team channels'
    messages) and `orders` (already in)."""
    try:
        history: list[Any] | None = private_history(game, character)
    except ReplayError:
        history = None
    return {
        "history": history,
        "channels": channel_history(game, character),
        "orders": current_orders(game, character),
    }
