"""`pbp advance <game>`: resolve the game's open phase now and send the reports."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.errors import UserError
from pbp.games import load, resolve_phase
from pbp.transport import open_sender


def register(subparsers) -> None:
    parser = subparsers.add_parser("advance", help="resolve a game's current phase now")
    parser.add_argument("game")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        game = load(moderator, args.game)
        if game.phase is None:
            raise UserError(f"Game {args.game} is over; there is no phase to resolve.")
        summary = resolve_phase(moderator, args.game, game.phase.id)
        print(f"Resolved {summary.game} {summary.phase}.")
        for line in summary.public:
            print(f"  {line}")
        if summary.result:
            print(f"Game over: {', '.join(summary.result['winners']) or 'nobody'} ({summary.result['path']}).")
        else:
            print(f"Next phase: {summary.next_phase}.")
        sender = open_sender(moderator.settings)
        try:
            sent = moderator.outbox.send_due(sender)
        finally:
            sender.close()
        print(f"Reports sent: {sent.sent}; waiting to retry: {sent.retrying}; failed: {sent.failed}.")
    return 0
