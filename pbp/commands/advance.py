"""`pbp advance <game>`: resolve the game's open phase now and send the reports."""

from __future__ import annotations

from argparse import Namespace
from typing import Iterator

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.errors import UserError
from pbp.forum.thread.watch import ThreadWatch
from pbp.game.stored import load
from pbp.game.resolution import resolve_phase
from pbp.commands.common import Subparsers
from pbp.moderator import Moderator


def register(subparsers: Subparsers) -> None:
    parser = register_game_command(
        subparsers, "advance", run=run, help="resolve a game's current phase now"
    )
    parser.add_argument(
        "--without-thread",
        action="store_true",
        help=(
            "resolve with the votes read from the thread so far, without reading it "
            "again (when the forum cannot be read)"
        ),
    )


def run(args: Namespace) -> int:
    def act(moderator: Moderator) -> Iterator[str]:
        game = load(moderator, args.game)
        if game.phase is None:
            raise UserError(f"Game {args.game} is over; there is no phase to resolve.")
        if not args.without_thread:
            waits = ThreadWatch().final_read(moderator, args.game)
            if waits is not None:
                raise UserError(
                    f"Game {args.game} was not resolved: the thread cannot be read now ({waits})."
                )
        summary = resolve_phase(moderator, args.game, game.phase.id)
        assert summary is not None  # the phase is open and this command holds the writer lock
        yield f"Resolved {summary.game} {summary.phase}."
        yield from (f"  {line}" for line in summary.public)
        if summary.result:
            yield (
                f"Game over: {', '.join(summary.result.winners) or 'nobody'}"
                f" ({summary.result.path})."
            )
        else:
            yield f"Next phase: {summary.next_phase}."

    return run_and_send(args, act, sent="Reports")
