"""The substitutes' list (docs/design.md: Sign-ups and spectators): those who signed up beyond the
game's maximum, in order. `pbp substitute <game> <old> --next` hands the character to the
first of them who is not on the game's roster yet, and takes them off the list. A watcher
is never dealt in: confirming WATCH takes the address off the list (pbp.signups.mail), and
`--next` skips anyone who watches the game. When the game ends, those still on the list
are told that they are no longer needed."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pbp.errors import UserError
from pbp.game.resolution import Resolved
from pbp.game.stored import StoredGame
from pbp.moderator import Moderator
from pbp.signups.spectators import OUTSIDE_SEQUENCE
from pbp.render.languages import SOURCE_LANGUAGE
from pbp.storage.datafolder import DataFolder
from pbp.storage.open_games import find_open_game
from pbp.storage.signup_record import SignupEntry

RELEASED = "substitute_released"


def next_substitute(
    folder: DataFolder, game_id: str, roster_addresses: set[str], watchers: set[str]
) -> tuple[SignupEntry, list[SignupEntry]]:
    """The first sign-up on the substitutes' list who does not play in the game yet and
    does not watch it, and those skipped because they watch (a watcher has seen every role
    and night action, so is never dealt in)."""
    signups = find_open_game(folder, game_id)
    if signups is None:
        raise UserError(
            f"Game {game_id} was not opened for sign-ups, so it has no substitutes' list; "
            f"name the newcomer: pbp substitute {game_id} <old> <new-name> <new-email>."
        )
    skipped: list[SignupEntry] = []
    for entry in signups.substitutes:
        if entry.email in watchers:
            skipped.append(entry)
        elif entry.email not in roster_addresses:
            return entry, skipped
    but = f" but those who watch it ({', '.join(e.name for e in skipped)})" if skipped else ""
    raise UserError(
        f"The substitutes' list of {game_id} is empty{but}; name the newcomer: "
        f"pbp substitute {game_id} <old> <new-name> <new-email>."
    )


def on_the_list(folder: DataFolder, game_id: str, email: str) -> bool:
    """Whether `email` is on the substitutes' list of `game_id`."""
    signups = find_open_game(folder, game_id)
    return signups is not None and any(entry.email == email for entry in signups.substitutes)


def strike_off(folder: DataFolder, game_id: str, email: str) -> None:
    """Take the substitute with address `email` off the list (they play, or watch, now)."""
    signups = find_open_game(folder, game_id)
    if signups is None:
        return
    record = signups.record
    kept = record.entries[: record.players_max] + tuple(
        e for e in signups.substitutes if e.email != email
    )
    signups.save(replace(record, entries=kept))


def release_substitutes(moderator: Moderator, game: StoredGame) -> None:
    """Once `game` is over, mail each one still on its substitutes' list (and not playing
    in it) that they were not needed, in the game's own durable write. Their mail counts
    apart from the players' (as the spectators' does)."""
    if game.phase is not None:
        return
    signups = find_open_game(moderator.folder, game.id)
    if signups is None:
        return
    playing = {player.email for player in game.roster}
    for entry in signups.substitutes:
        if entry.email in playing:
            continue
        mail = moderator.renderer_for(entry.language or SOURCE_LANGUAGE).render(
            RELEASED, game.record.ruleset, game=game.game_facts(), name=entry.name
        )
        moderator.outbox.queue(
            game.file,
            phase=game.filed_phase,
            recipient=entry.name,
            address=entry.email,
            kind=RELEASED,
            mail=mail,
            sequence_key=OUTSIDE_SEQUENCE,
        )


def released_after_resolution(moderator: Moderator, resolved: Resolved) -> None:
    """`after_resolution` listener (pbp.composition): the resolution that ended a game."""
    release_substitutes(moderator, resolved.after)


def released_after_host_action(
    moderator: Moderator, before: StoredGame, after: StoredGame, events: Any
) -> None:
    """`after_host_action` listener (pbp.composition): a host kill that ended a game."""
    if before.phase is not None:  # not once more for a later host action
        release_substitutes(moderator, after)
