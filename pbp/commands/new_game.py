"""`pbp new-game --ruleset R --roster roster.csv [--seed S] [--option k=v …] [--schedule …]
[--npc NAME:CLASS:TEAM …] [--map FILE] [--id ID]`: start a game and queue every player's
welcome mail.
"""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
import re
from pathlib import Path

import engine
from pbp.commands.balance_note import balance_note
from pbp.commands.common import add_settings_arguments, open_moderator, Subparsers
from pbp.commands.simulate import parse_options
from pbp.errors import UserError
from pbp.game.create import create_game
from pbp.commands.sending import send_queued
from pbp.game.roster_file import parse_npc, parse_roster


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "new-game",
        help="start a game from a roster and mail every player their welcome",
        description=(
            "Start a game from a roster and mail every player their welcome. Each ruleset's phase "
            "kinds (for --schedule), options with their defaults (for --option), roles or classes "
            "and orders: `pbp rules <ruleset>`."
        ),
    )
    parser.add_argument(
        "--ruleset",
        required=True,
        choices=engine.rulesets(),
        help="the game's rules; `pbp rules <ruleset>` describes each",
    )
    parser.add_argument(
        "--roster",
        required=True,
        metavar="CSV",
        help="name,email[,timezone,forum_name,language] per line",
    )
    parser.add_argument("--seed", help="the game's seed (default: a random one, stored)")
    _add_setup_arguments(parser)
    parser.add_argument("--id", dest="game_id", help="the game's id (default: inf1, ww2, …)")
    parser.add_argument(
        "--no-send", action="store_true", help="queue the welcome mails but do not send them now"
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def _add_setup_arguments(parser: ArgumentParser) -> None:
    """How the game is set up beyond its roster: options, deadlines, host-run characters, map."""
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (repeatable); `pbp rules <ruleset>` lists them with their defaults",
    )
    parser.add_argument(
        "--schedule",
        metavar="KIND=DURATION,…",
        help=(
            "deadline length per phase kind, e.g. class=24h,movement=24h,decision=48h "
            "(default= sets all others); `pbp rules <ruleset>` lists the kinds"
        ),
    )
    parser.add_argument(
        "--npc",
        action="append",
        default=[],
        metavar="NAME:CLASS:TEAM",
        help="a host-run character, for a ruleset that has them (repeatable)",
    )
    parser.add_argument(
        "--map",
        metavar="FILE",
        help=(
            "Infiltration: the host's map (one 'ROOM FEATURE' per line, or 8 lines of 8 "
            "comma-separated features) instead of a random one"
        ),
    )


def run(args: Namespace) -> int:
    path = Path(args.roster)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError:
        raise UserError(f"Cannot read the roster {path}; check the path.") from None
    roster = parse_roster(text, str(path))
    card = engine.ruleset(args.ruleset).card
    npcs = [parse_npc(spec, card) for spec in args.npc]
    options = parse_options(args.option)
    if args.map:
        if "map" not in card.setup_files:
            drawn = [
                name for name in engine.rulesets() if "map" in engine.ruleset(name).card.setup_files
            ]
            raise UserError(
                f"--map is for {' and '.join(name.title() for name in drawn)} games only; drop it"
                f" or use --ruleset {drawn[0]}."
            )
        try:
            options["map"] = Path(args.map).read_text(encoding="utf-8-sig")
        except OSError:
            raise UserError(f"Cannot read the map file {args.map}; check the path.") from None
    if args.game_id and not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,19}", args.game_id):
        raise UserError(
            f"--id {args.game_id!r}: use 1-20 letters, digits, '_' or '-', starting with a letter."
        )
    with open_moderator(args) as moderator:
        game = create_game(
            moderator, args.ruleset, roster, npcs, args.seed, options, args.schedule, args.game_id
        )
        print(
            f"Game {game.id} ({args.ruleset}, {len(roster)} players) started; "
            f"phase {game.record.phase_id} ends {game.deadline_text()}."
        )
        for warning in game.rules.setup_warnings(game.state):
            print(f"Warning: {warning}")
        if not args.no_send:
            print(send_queued(moderator, what="Welcome mails"))
    # After the folder is closed: the note forks worker processes to play its games.
    note = balance_note(args.ruleset, [len(roster)], options)
    if note:
        print(note)
    return 0
