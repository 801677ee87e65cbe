"""`pbp draft show|edit|approve|tally|settings <game>`: the host's review of the public
posts (docs/design.md: Public posts)."""

from __future__ import annotations

from argparse import Namespace
import os
import shlex
import subprocess
import tempfile
from pathlib import Path

from pbp.commands.common import (
    add_settings_arguments,
    GAME_HELP,
    open_moderator,
    open_reader,
    Subparsers,
)
from pbp.errors import UserError
from pbp.forum.publishing import drafting
from pbp.forum.publishing import review
from pbp.storage.drafts import DraftBook, DraftRow
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.dialects import DIALECTS
from pbp.forum.publishing.post_renderer import thread_post_renderer
from pbp.game.stored import load, StoredGame
from pbp.signups.opening import set_dialect
from pbp.storage.open_games import OpenGame, find_open_game


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("draft", help="review the public post drafts of a game")
    actions = parser.add_subparsers(dest="draft_action", metavar="<action>", required=True)
    for name, text, run, default in (
        (
            "show",
            "print a draft (default: the oldest unpublished one)",
            _show_draft,
            "the oldest unpublished draft",
        ),
        (
            "edit",
            "edit a draft in $EDITOR; the edit is kept",
            _edit,
            "the oldest unpublished draft",
        ),
        (
            "approve",
            "approve a draft for publishing (leak-checked)",
            _approve,
            "the oldest draft not approved yet",
        ),
    ):
        action = actions.add_parser(name, help=text)
        action.add_argument("game", help=GAME_HELP)
        action.add_argument(
            "phase",
            nargs="?",
            help=f"the draft's phase, as `pbp status` lists it (default: {default})",
        )
        if name == "approve":
            action.add_argument(
                "--force",
                action="store_true",
                help="approve even though the leak check found a hidden fact",
            )
            action.add_argument(
                "--all",
                action="store_true",
                help="approve every draft waiting for approval that passes the leak check",
            )
        add_settings_arguments(action)
        action.set_defaults(run=run)
    _add_tally_and_settings(actions)


def _add_tally_and_settings(actions: Subparsers) -> None:
    """The actions on a whole game rather than one draft: the vote count and the settings."""
    tally = actions.add_parser("tally", help="draft a running vote count of the open phase")
    tally.add_argument("game", help=GAME_HELP)
    add_settings_arguments(tally)
    tally.set_defaults(run=_tally)
    settings = actions.add_parser(
        "settings",
        help=(
            "a game's forum settings (dialect, auto-publish); a new "
            "dialect renders the drafts not yet approved again"
        ),
    )
    settings.add_argument("game", help=GAME_HELP)
    settings.add_argument(
        "--dialect", choices=sorted(DIALECTS), help="the markup of the game's posts"
    )
    settings.add_argument(
        "--auto-publish",
        choices=("on", "off", "tally"),
        help=(
            "approve drafts that pass the leak check at once: all, none, or running vote counts"
            " only"
        ),
    )
    add_settings_arguments(settings)
    settings.set_defaults(run=_settings)


def _show(row: DraftRow) -> None:
    flags = [row.status] + (["edited"] if row.edited else []) + (["forced"] if row.forced else [])
    print(f"Draft {row.phase} ({', '.join(flags)}, {row.dialect})")
    print(f"Title: {row.title}")
    print("-" * 60)
    print(row.text.rstrip())
    print("-" * 60)
    for leak in row.leaks:
        print(f"LEAK: {leak}")
    if row.error:
        print(f"Last publishing error: {row.error}")


def _edit_text(text: str) -> str:
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "draft.txt"
        path.write_text(text, encoding="utf-8")
        try:
            finished = subprocess.run([*shlex.split(editor), str(path)])
        except OSError as error:
            raise UserError(
                f"Cannot start the editor {editor!r} ({error}); set $EDITOR to one that exists."
            ) from None
        if finished.returncode != 0:
            raise UserError(
                f"The editor {editor!r} exited with status {finished.returncode}; the draft is"
                " unchanged."
            )
        return path.read_text(encoding="utf-8")


def _edit_before_locking(args: Namespace) -> tuple[str, str]:
    """(phase, the host's text): the editor runs while pbp holds no lock, since it may stay
    open for minutes and `pbp run` must go on meanwhile; only the saving takes the lock."""
    with open_reader(args) as moderator:
        game = load(moderator, args.game)
        row = review.find_draft(DraftBook(game.file), game.id, args.phase)
    return row.phase, _edit_text(row.text)


def _show_draft(args: Namespace) -> int:
    with open_reader(args) as moderator:  # show only reads
        game = load(moderator, args.game)
        _show(review.find_draft(DraftBook(game.file), game.id, args.phase))
    return 0


def _edit(args: Namespace) -> int:
    phase, text = _edit_before_locking(args)
    with open_moderator(args) as moderator:
        game = load(moderator, args.game)
        with game.file.transaction():
            row = review.edit(game, phase, text)
    print(f"Kept your edit of {row.phase}" + (" (no change)." if not row.edited else "."))
    for leak in row.leaks:
        print(f"LEAK: {leak}")
    return 0


def _approve(args: Namespace) -> int:
    if args.all and (args.phase or args.force):
        raise UserError(
            "--all approves every waiting draft that passes the leak check; name no phase and "
            "leave out --force (approve a failing draft alone, by its phase, with --force)."
        )
    with open_moderator(args) as moderator:
        game = load(moderator, args.game)
        with game.file.transaction():
            if args.all:
                return _approve_all(game)
            row = review.approve(game, args.phase, forced=args.force)
    print(
        f"Approved {row.phase}"
        + (" despite the leak check." if row.forced else ".")
        + " `pbp publish` (or `pbp run`) publishes it."
    )
    return 0


def _approve_all(game: StoredGame) -> int:
    """Every waiting draft that passes the leak check is approved; the others are listed
    with why, and make the exit status non-zero."""
    approved, refused = review.approve_all(game)
    if not approved and not refused:
        raise UserError(
            f"Game {game.id} has no draft waiting for approval; `pbp status {game.id}` lists its"
            " drafts."
        )
    if approved:
        print(
            f"Approved {len(approved)}: {', '.join(row.phase for row in approved)}. "
            "`pbp publish` (or `pbp run`) publishes them."
        )
    for phase, why in refused:
        print(f"Not approved {phase}: {why}")
    return 2 if refused else 0


def _tally(args: Namespace) -> int:
    with open_moderator(args) as moderator:
        forum = load_forum_settings(moderator.settings)
        game = load(moderator, args.game)
        with game.file.transaction():
            row = drafting.draft_tally(
                thread_post_renderer(moderator, game), forum, game, moderator.clock()
            )
        _show(row)
    return 0


def _mode_words(mode: bool | str) -> str:
    return mode if isinstance(mode, str) else ("on" if mode else "off")


def _settings(args: Namespace) -> int:
    with open_moderator(args) as moderator:
        forum = load_forum_settings(moderator.settings)
        signups = find_open_game(moderator.folder, args.game)
        if signups is not None and signups.id not in moderator.folder.game_ids():
            return _open_game_settings(args, signups, forum.dialect)
        game = load(moderator, args.game)
        book = DraftBook(game.file)
        fields = {}
        if args.dialect:
            fields["dialect"] = args.dialect
        if args.auto_publish:
            fields["auto_publish"] = (
                args.auto_publish if args.auto_publish == "tally" else args.auto_publish == "on"
            )
        with game.file.transaction():
            current = book.update_game_settings(fields) if fields else book.game_settings()
            rendered, kept = (
                drafting.rerender(thread_post_renderer(moderator, game), forum, game)
                if args.dialect
                else ([], [])
            )
        print(
            f"Game {game.id}: dialect {current.get('dialect') or forum.dialect}, auto-publish"
            f" {_mode_words(review.auto_publish_mode(book, forum))}, thread"
            f" {current.get('thread') or 'none yet'}."
        )
        if rendered:
            print(f"Drafts rendered again in {args.dialect}: {', '.join(rendered)}.")
        for line in kept:
            print(f"Draft {line}")
    return 0


def _open_game_settings(args: Namespace, signups: OpenGame, default_dialect: str) -> int:
    """A game still open for sign-ups has no posts yet: only its dialect can be set, and
    its opening post is drafted in it."""
    if args.auto_publish:
        raise UserError(
            f"Game {signups.id} is open for sign-ups and has no posts yet; set --auto-publish once "
            "it has started."
        )
    dialect = set_dialect(signups, args.dialect) or default_dialect
    print(
        f"Game {signups.id} (open for sign-ups): dialect {dialect}; its posts are drafted in it"
        " from the start."
    )
    return 0
