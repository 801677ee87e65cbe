"""`pbp publish [game]`: publish every approved post, in order, to the configured forum
(issue 6: Publishing)."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.forum import service
from pbp.forum.config import load_forum_settings
from pbp.games import load


def register(subparsers) -> None:
    parser = subparsers.add_parser("publish", help="publish approved public posts")
    parser.add_argument("game", nargs="?", help="one game (default: every game)")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        forum = load_forum_settings(moderator.settings)
        publisher = service.make_publisher(forum, forum.dialect)
        games = [args.game] if args.game else moderator.folder.game_ids()
        published = 0
        for game_id in games:
            game = load(moderator, game_id)
            published += len(service.publish_game(game, publisher, ignore_wait=True, on_event=print))
        print(f"Published {published} post(s).")
    return 0
