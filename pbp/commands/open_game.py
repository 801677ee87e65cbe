"""`pbp open-game <id> --ruleset R --players MIN..MAX --closes <time> [--option k=v …]
[--schedule …] [--seed S] [--npc NAME:CLASS:TEAM …] [--dialect D]`: open a game for
sign-ups by mail and print the announcement post for the thread (docs/design.md: Sign-ups
and spectators).
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace

import engine
from pbp.commands.balance_note import balance_note, sizes_to_check
from pbp.commands.common import add_settings_arguments, open_moderator, Subparsers
from pbp.commands.simulate import parse_options
from pbp.forum.publishing.dialects import DIALECTS
from pbp.game.roster_file import parse_npc
from pbp.signups.announcement import announcement
from pbp.signups.opening import open_for_signups
from pbp.timezones import render_moment


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "open-game", help="open a game for sign-ups by mail (JOIN <game> <name>)"
    )
    parser.add_argument("game", help="the game's id, e.g. ww3")
    parser.add_argument(
        "--ruleset",
        required=True,
        choices=engine.rulesets(),
        help="the game's rules; `pbp rules <ruleset>` describes each",
    )
    parser.add_argument(
        "--players", required=True, metavar="MIN..MAX", help="how many may play, e.g. 8..12"
    )
    parser.add_argument(
        "--closes",
        required=True,
        metavar="WHEN",
        help=(
            "when sign-ups close: a duration from now (3d) or a time with a zone "
            "(2030-12-01 18:00 Europe/Berlin)"
        ),
    )
    _add_setup_arguments(parser)
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def _add_setup_arguments(parser: ArgumentParser) -> None:
    """How the game will be set up: seed, options, deadlines, host-run characters, markup."""
    parser.add_argument(
        "--seed", help="the game's seed (default: a random one, stored at the start)"
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable), as in new-game; `pbp rules <ruleset>` lists them",
    )
    parser.add_argument(
        "--schedule",
        metavar="KIND=DURATION,…",
        help="deadline length per phase kind, as in new-game",
    )
    parser.add_argument(
        "--npc",
        action="append",
        default=[],
        metavar="NAME:CLASS:TEAM",
        help="Infiltration: a host-run character (repeatable), as in new-game",
    )
    parser.add_argument(
        "--dialect",
        choices=sorted(DIALECTS),
        help="the markup of the game's posts (default: the settings file's [forum] dialect)",
    )


def run(args: Namespace) -> int:
    options = parse_options(args.option)
    npcs = [parse_npc(spec, engine.ruleset(args.ruleset).card) for spec in args.npc]
    with open_moderator(args) as moderator:
        signups = open_for_signups(
            moderator,
            args.game,
            args.ruleset,
            args.players,
            args.closes,
            options,
            args.schedule,
            args.seed,
            npcs,
            args.dialect or "",
        )
        record = signups.record
        print(
            f"Game {signups.id} ({args.ruleset}, {record.players_min} to {record.players_max}"
            f" players) is open for sign-ups until {render_moment(record.closes)}. Announcement for"
            " the thread:\n"
        )
        print(announcement(moderator, signups), end="")
    # After the folder is closed: the note forks worker processes to play its games.
    note = balance_note(
        args.ruleset, sizes_to_check(record.players_min, record.players_max), options
    )
    if note:
        print(f"\n{note}")
    return 0
