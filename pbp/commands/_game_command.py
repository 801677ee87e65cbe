"""The shape shared by the commands that act on one game (`pbp orders|extend|pause|resume|
substitute|submit|modkill|replay|advance <game> …`): their parser, and running one host
operation with the data folder's writer lock, then sending the mails it queued.

The operations themselves live in `pbp.game` and `pbp.host`; a command module
only names its arguments and words its one-line answer.
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from typing import Any, Callable, Iterable

from engine.errors import Wording
from pbp.commands.common import GAME_HELP, Subparsers, add_settings_arguments, open_moderator
from pbp.commands.sending import send_queued
from pbp.moderator import Moderator

NO_SEND_NOTICES = "queue the notices but do not send them now"  # `--no-send` of most host commands
# `--reason` of extend, pause and resume: told to the players and posted in the thread.
REASON_ARGUMENT = (
    "--reason",
    {
        "metavar": "TEXT",
        "default": "",
        "help": "why, in a few words; told to the players and said in the thread's post",
    },
)


def register_game_command(
    subparsers: Subparsers,
    name: str,
    *,
    help: str,
    run: Callable[[Any], int],
    arguments: Iterable[tuple[str, dict[str, Any]]] = (),
    no_send: str = "",
) -> ArgumentParser:
    """`pbp <name> <game> [arguments…] [--no-send] [--settings PATH] [--data DIR]`.

    `arguments` are (name, argparse keywords) pairs added after `<game>`, in order;
    `no_send`, the help of `--no-send` (e.g. "queue the notices but do not send them now"),
    is given by a command that queues mail: it may then leave it for the next `pbp poll` or
    `pbp run`."""
    parser: ArgumentParser = subparsers.add_parser(name, help=help)
    parser.add_argument("game", help=GAME_HELP)
    for argument, options in arguments:
        parser.add_argument(argument, **options)
    if no_send:
        parser.add_argument("--no-send", action="store_true", help=no_send)
    add_settings_arguments(parser)
    parser.set_defaults(run=run)
    return parser


def run_and_send(
    args: Namespace,
    act: Callable[[Moderator], str | Wording | Iterable[str | Wording]],
    *,
    sent: str = "Mails",
) -> int:
    """Run `act` (a host operation that queues mail) as the data folder's one writer,
    print what it returns (a line or lines), then send the outbox unless `--no-send`,
    with one line saying how that went (`<sent> sent: …`)."""
    with open_moderator(args) as moderator:
        said = act(moderator)
        for line in [said] if isinstance(said, (str, Wording)) else said:
            print(line)  # a Wording's English (the desk words it in the host's language)
        print(send_queued(moderator, not getattr(args, "no_send", False), what=sent))
    return 0
