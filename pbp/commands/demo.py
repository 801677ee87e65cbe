"""`pbp demo [--ruleset R] [--players N] [--seed S] [--keep DIR] [--web [--port P]]`: a
complete game on the embedded Maildir transport with scripted players, printing each
resolution's public summary and the winner. With `--web` the game stops after its first
phases, every order of the next one in, and the host's desk (`pbp web`) is served on the
kept folder: a newcomer's way to the desk in one command."""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
import shutil
import tempfile
import time
from pathlib import Path

import engine
from pbp.demo import play_demo
from pbp.errors import UserError
from pbp.render.languages import SOURCE_LANGUAGE, language_problem
from pbp.commands.common import Subparsers

# `pbp demo --web` stops after this many phases, the next one's orders in, drafts waiting.
WEB_DEMO_PHASES = 2
DEMO_SETTINGS = "pbp-demo.ini"  # the settings file `pbp demo --web` writes into the kept folder


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "demo", help="play a whole game by (local) mail with scripted players"
    )
    parser.add_argument(
        "--ruleset",
        choices=engine.rulesets(),
        default=engine.DEFAULT_RULESET,
        help=f"the ruleset of the demo game (default: {engine.DEFAULT_RULESET})",
    )
    parser.add_argument(
        "--players", type=int, help="how many players (default: the ruleset's own demo table)"
    )
    parser.add_argument(
        "--seed",
        help=(
            "the demo game's seed; the same seed plays the same game (default: the "
            "ruleset's own demo seed)"
        ),
    )
    _add_play_arguments(parser)
    _add_keep_arguments(parser)
    parser.set_defaults(run=run)


def _add_keep_arguments(parser: ArgumentParser) -> None:
    """Whether the demo's folder is kept, and served on the host's desk."""
    parser.add_argument(
        "--keep", metavar="DIR", help="keep the demo's data folder (and its mail) in DIR"
    )
    parser.add_argument(
        "--web",
        action="store_true",
        help=(
            "stop the game mid-way and serve the host's desk on it (the folder is kept: "
            "DIR, or a new one the command names)"
        ),
    )
    parser.add_argument(
        "--port", type=int, help="with --web: the desk's port (default: 8080; 0: any free one)"
    )


def _add_play_arguments(parser: ArgumentParser) -> None:
    """Where votes are cast and in which language the game is played."""
    parser.add_argument(
        "--votes",
        choices=("mail", "thread", "both"),
        default="mail",
        help=(
            "where votes are cast: mail (default), or thread: posts in a local forum's "
            "thread that the demo runs for its length"
        ),
    )
    parser.add_argument(
        "--language",
        default=SOURCE_LANGUAGE,
        metavar="CODE",
        help=(
            "the language every player, the host and the thread read, such as de or es "
            "(default: en)"
        ),
    )


def run(args: Namespace) -> int:
    unwritten = language_problem(args.language.strip().lower())
    if unwritten:
        raise UserError(f"--language: {unwritten}")
    args.language = args.language.strip().lower()
    if args.port is not None and not args.web:
        raise UserError(
            "--port is the desk's port and goes with --web: pbp demo --web --port 8081."
        )
    if args.keep:
        data = Path(args.keep)
        if data.exists() and not data.is_dir():
            raise UserError(f"{data} is a file, not a folder; name a new folder for --keep.")
        if data.exists() and any(data.iterdir()):
            raise UserError(f"{data} is not empty; name a new folder for --keep.")
    else:
        data = Path(tempfile.mkdtemp(prefix="pbp-demo-"))
    if args.web:
        return _play_and_serve(args, data)
    started = time.monotonic()
    try:
        outcome = play_demo(
            args.ruleset, args.players, args.seed, data, votes=args.votes, language=args.language
        )
    finally:
        if not args.keep:
            shutil.rmtree(data, ignore_errors=True)
    print(
        f"\n{outcome.phases} phases, {outcome.mails_received} order mails read, "
        f"{outcome.mails_sent} mails sent, in {time.monotonic() - started:.1f} s."
    )
    return 0 if outcome.result else 1


def _play_and_serve(args: Namespace, data: Path) -> int:
    """Play the demo up to its third phase, write a settings file for the folder beside its
    games, and serve `pbp web` on it (docs/host/desk.md)."""
    from pbp.commands import web

    play_demo(
        args.ruleset,
        args.players,
        args.seed,
        data,
        votes=args.votes,
        stop_after=WEB_DEMO_PHASES,
        language=args.language,
    )
    settings = data / DEMO_SETTINGS
    own_language = f"host_language = {args.language}\n" if args.language != SOURCE_LANGUAGE else ""
    settings.write_text(
        f"[pbp]\ndata = .\nfrom_address = pbp@demo.invalid\n{own_language}", encoding="utf-8"
    )
    print(
        f"\nThe demo's data folder is kept in {data}; serve its desk again with "
        f"`pbp web --settings {settings}`.",
        flush=True,
    )
    port = web.DEFAULT_PORT if args.port is None else args.port
    return web.run(
        Namespace(
            settings=str(settings),
            data=None,
            port=port,
            host="127.0.0.1",
            allow_remote=False,
            tls_cert=None,
            tls_key=None,
            behind_proxy=False,
            set_password=False,
            login_link=False,
        )
    )
