"""`pbp resume <game> [--reason TEXT]`: restart a paused game's clock with the time it had
left; players are told, and a short post for the thread is drafted."""
from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import NO_SEND_NOTICES, REASON_ARGUMENT, register_game_command, run_and_send
from pbp.game.deadlines import resume
from pbp.game.clock import UNSET_DEADLINE
from pbp.timezones import render_moment
from pbp.commands.common import Subparsers
from pbp.moderator import Moderator


def register(subparsers: Subparsers) -> None:
    register_game_command(subparsers, "resume", run=run, no_send=NO_SEND_NOTICES,
                          help="restart a paused game with the time it had left", arguments=[REASON_ARGUMENT])


def run(args: Namespace) -> int:
    def act(moderator: Moderator) -> str:
        deadline = resume(moderator, args.game, args.reason)
        if deadline is None:  # option wait_for_publish: the clock still waits for a public post
            return (f"Game {args.game} resumed; the deadline is {UNSET_DEADLINE} "
                    f"(`pbp status {args.game}` shows which); a post for the thread is drafted.")
        return f"Game {args.game} resumed; the deadline is {render_moment(deadline)}; a post for the thread is drafted."

    return run_and_send(args, act)
