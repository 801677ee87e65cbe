"""The finished games of a data folder, as the public may know them once they are over
(docs/balance.md: Statistics across games). A game that is still running counts only as
running: its state, where the secrets are, is never decoded or read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator

from engine.core import Ruleset, RulesetCard
from pbp.game.record import GameRecord
from pbp.game.stored import record_of
from pbp.storage.datafolder import DataFolder


@dataclass(frozen=True)
class Seat:
    """One character of a finished game and who played it at the end."""

    player: str
    character: str
    role: str
    team: str
    survived: bool
    won: bool


@dataclass(frozen=True)
class FinishedGame:
    id: str
    ruleset: str
    setup: str
    winners: tuple[str, ...]
    seats: tuple[Seat, ...]


def finished_games(
    folder: DataFolder, rules_of: Callable[[str], Ruleset]
) -> tuple[list[FinishedGame], int]:
    """The finished games, in the registry's order, and how many games are still running."""
    finished, running = [], 0
    for game in folder.games():
        record = record_of(game)
        if not record.result:
            running += 1
            continue
        finished.append(read_finished(record, rules_of(record.ruleset)))
    return finished, running


def read_finished(record: GameRecord, rules: Ruleset) -> FinishedGame:
    """A finished game's public facts: its result and the roles the end revealed."""
    state = rules.from_json(record.state)
    result = record.result
    winners = set(result.players if result else ())
    seats = []
    for player in record.roster:
        character = player.name
        status = rules.status(state, character)
        seats.append(
            Seat(
                player.player,
                character,
                status.role or status.label,
                status.team,
                status.alive,
                character in winners,
            )
        )
    return FinishedGame(
        record.id,
        record.ruleset,
        setup_of(record.ruleset, rules.card, seats),
        result.winners if result else (),
        tuple(seats),
    )


def setup_of(ruleset: str, card: RulesetCard, seats: list[Seat]) -> str:
    """A setup's name: the ruleset, the size and what it was made of, in the card's words
    (`setup_name`: the roles, or the number of Reds)."""
    made_of = card.setup_name([(seat.role, seat.team) for seat in seats])
    return f"{ruleset} {len(seats)}: {made_of}" if made_of else f"{ruleset} {len(seats)}"


def seats_of(games: list[FinishedGame]) -> Iterator[tuple[FinishedGame, Seat]]:
    for game in games:
        for seat in game.seats:
            yield game, seat
