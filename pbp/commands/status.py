"""`pbp status [game]`: games, phases, deadlines, who has orders in and who is awaited,
the public thread's drafts and posts, failed mail, mail from unknown senders, quarantined
mail."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import add_settings_arguments, open_reader, Subparsers
from pbp.settings import secrets_readable_by_others
from pbp.forum.thread.thread_status import status_lines as thread_status_lines
from pbp.host.status import status_text


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "status", help="show games, deadlines, orders in, drafts, and mail problems"
    )
    parser.add_argument("game", nargs="?", help="one game's id (default: every game)")
    parser.add_argument(
        "--json",
        action="store_true",
        help=(
            "print the status as JSON for monitoring; the exit code is 0 when all is well, "
            "3 when `pbp run` is not running, 4 when mail is failing, 5 when a resolution "
            "waits for the host"
        ),
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    if args.json:
        return _run_json(args)
    with open_reader(args) as moderator:  # reads only: never waits for `pbp run`
        print(
            status_text(
                moderator.folder,
                args.game,
                rules_for=moderator.rules,
                thread_lines=thread_status_lines,
            )
        )
        for exposed in secrets_readable_by_others(moderator.settings.source):
            print(
                f"WARNING: {exposed} holds a password and others may read it; "
                f"make it yours alone with `chmod 600 {exposed}`."
            )
    return 0


def _run_json(args: Namespace) -> int:
    """For monitoring (pbp.host.status_report): JSON on standard output, the exit code."""
    import json

    from pbp.host.status_report import status_report
    from pbp.schedule import now

    with open_reader(args) as moderator:
        report = status_report(moderator.folder, now(), args.game)
    print(json.dumps(report, indent=2, sort_keys=True))
    return int(report["exit_code"])
