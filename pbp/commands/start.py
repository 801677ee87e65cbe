"""`pbp start <game>`: deal the roles of a game open for sign-ups to those who signed up,
and mail every player their welcome (docs/design.md: Sign-ups and spectators)."""
from __future__ import annotations

from argparse import Namespace

from pbp.commands._game_command import register_game_command, run_and_send
from pbp.signups.starting import start_signed_up
from pbp.commands.common import Subparsers
from pbp.moderator import Moderator


def register(subparsers: Subparsers) -> None:
    register_game_command(subparsers, "start", run=run, help="start a game open for sign-ups with those who signed up",
                          no_send="queue the welcome mails but do not send them now")


def run(args: Namespace) -> int:
    def act(moderator: Moderator) -> str:
        game = start_signed_up(moderator, args.game)
        return (f"Game {game.id} ({game.record.ruleset}, {len(game.roster)} players) started; "
                f"phase {game.record.phase_id} ends {game.deadline_text()}.")

    return run_and_send(args, act, sent="Welcome mails")
