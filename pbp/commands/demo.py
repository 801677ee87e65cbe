"""`pbp demo [--ruleset R] [--players N] [--seed S] [--keep DIR]`: a complete game on the
embedded Maildir transport with scripted players, printing each resolution's public
summary and the winner."""
from __future__ import annotations

from argparse import Namespace
import shutil
import tempfile
import time
from pathlib import Path

import engine
from pbp.demo import play_demo
from pbp.errors import UserError
from pbp.commands.common import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("demo", help="play a whole game by (local) mail with scripted players")
    parser.add_argument("--ruleset", choices=engine.rulesets(), default=engine.DEFAULT_RULESET,
                        help=f"the ruleset of the demo game (default: {engine.DEFAULT_RULESET})")
    parser.add_argument("--players", type=int, help="how many players (default: the ruleset's own demo table)")
    parser.add_argument("--seed", help="the demo game's seed; the same seed plays the same game (default: the "
                                       "ruleset's own demo seed)")
    parser.add_argument("--votes", choices=("mail", "thread", "both"), default="mail",
                        help="where votes are cast: mail (default), or thread: posts in a local forum's "
                             "thread that the demo runs for its length")
    parser.add_argument("--keep", metavar="DIR", help="keep the demo's data folder (and its mail) in DIR")
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    if args.keep:
        data = Path(args.keep)
        if data.exists() and not data.is_dir():
            raise UserError(f"{data} is a file, not a folder; name a new folder for --keep.")
        if data.exists() and any(data.iterdir()):
            raise UserError(f"{data} is not empty; name a new folder for --keep.")
    else:
        data = Path(tempfile.mkdtemp(prefix="pbp-demo-"))
    started = time.monotonic()
    try:
        outcome = play_demo(args.ruleset, args.players, args.seed, data, votes=args.votes)
    finally:
        if not args.keep:
            shutil.rmtree(data, ignore_errors=True)
    print(f"\n{outcome.phases} phases, {outcome.mails_received} order mails read, "
          f"{outcome.mails_sent} mails sent, in {time.monotonic() - started:.1f} s.")
    return 0 if outcome.result else 1
