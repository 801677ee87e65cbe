"""`pbp publish [game]`: publish every approved post, in order, to the configured forum
(docs/design.md: Public posts); then, on every forum that has threads (Reddit,
Discourse), read each game's thread: its votes, and posts by dead or silenced players
(the thread watch). A phase whose clock waited for a post
it published (option wait_for_publish) gets its deadline, and its players are mailed it."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import add_settings_arguments, open_moderator, Subparsers
from pbp.forum.publishing import publish
from pbp.forum.thread import watch
from pbp.forum.thread.posts import ThreadReader
from pbp.forum.config import load_forum_settings
from pbp.game.stored import load
from pbp.commands.sending import send_queued
from pbp.timezones import render_moment


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "publish", help="publish approved public posts (and read the games' threads)"
    )
    parser.add_argument("game", nargs="?", help="one game (default: every game)")
    parser.add_argument(
        "--no-watch",
        action="store_true",
        help="do not read the game threads (votes, posts by dead or silenced players)",
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    with open_moderator(args) as moderator:
        forum = load_forum_settings(moderator.settings)
        publisher = publish.make_publisher(forum)
        games = [args.game] if args.game else moderator.folder.game_ids()
        published = 0
        clocks = 0
        for game_id in games:
            done = publish.publish_now(moderator, game_id, publisher, on_event=print)
            published += len(done.posts)
            if done.clock_started is not None:
                clocks += 1
                print(
                    f"{game_id} {load(moderator, game_id).record.phase_id}: the clock has started;"
                    f" the deadline is {render_moment(done.clock_started)} (players are told)."
                )
            waiting = done.waiting
            if waiting is not None:
                print(
                    f"{game_id} {waiting.phase}: not approved yet, so it and the posts after it"
                    f" wait; `pbp draft show {game_id} {waiting.phase}`, then `pbp draft approve"
                    f" {game_id} {waiting.phase}`."
                )
        print(f"Published {published} post(s).")
        if clocks:  # players hear their new deadline now, not at the next `pbp run` cycle
            print(send_queued(moderator, what="Deadline notices"))
        if not args.no_watch and isinstance(publisher, ThreadReader):  # every forum with threads
            warnings = watch.watch_threads(moderator, publisher, on_warning=print, games=games)
            print(f"Thread watch: {len(warnings)} warning(s).")
    return 0
