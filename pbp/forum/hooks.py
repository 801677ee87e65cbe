"""Where the moderator loop calls the public thread (issue 6): after each resolution (draft
it, mail it to the host), in each turn of `pbp run` (publish what is approved), and for
mail from the host's address (`APPROVE` by mail)."""
from __future__ import annotations

import functools
import os
from typing import Any, Callable, Mapping, Sequence

from engine.core import Event
from pbp.forum import service
from pbp.forum.book import DraftBook
from pbp.forum.config import load_forum_settings
from pbp.forum.drafting import PostRenderer
from pbp.rendering import RenderedMail

HOST = "host"


def _renderer(moderator: Any) -> PostRenderer:
    def describe(ruleset: str, event: Mapping) -> str:
        return moderator.renderer.describe(ruleset, Event(event["kind"], event.get("data", {})))
    return PostRenderer(describe=describe)


def approval_form(game: str, phase: str, token: str) -> str:
    return (f"BEGIN ORDERS {game} {phase}\nTOKEN: {token}\n"
            f"# To publish this draft, remove the # at the start of the next line.\n# APPROVE\nEND ORDERS\n")


def _mail_host(moderator: Any, forum: Any, game: Any, row: dict) -> None:
    book = DraftBook(game.file)
    leaks = "".join(f"LEAK CHECK: {leak}\n" for leak in row["leaks"])
    body = (f"pbp drafted the public post for game {game.id}, phase {row['phase']}.\n\n"
            f"Title: {row['title']}\n" + "-" * 60 + f"\n{row['text'].rstrip()}\n" + "-" * 60 + "\n"
            + (leaks or "The leak check found no hidden fact.\n")
            + f"\nTo change it: pbp draft edit {game.id} {row['phase']}\n"
            f"To approve it: pbp draft approve {game.id} {row['phase']}, or reply to this mail with the "
            f"block below, APPROVE un-commented.\n\n" + approval_form(game.id, row["phase"], book.host_token()))
    moderator.outbox.queue(game.file, phase=row["phase"], recipient=HOST, address=forum.host_address,
                           kind="draft", mail=RenderedMail(f"[{game.id}] Draft of the public post for {row['phase']}", body))


def after_resolution(moderator: Any, before: Any, after: Any, phase: str, public_events: Sequence[Mapping]) -> None:
    """Draft the post for a resolved phase and mail it to the host (call inside the
    resolution's transaction, so the draft is written with it)."""
    forum = load_forum_settings(moderator.settings)
    try:
        row = service.draft_resolution(_renderer(moderator), forum, before, after, phase, public_events)
    except Exception as error:  # noqa: BLE001 - a template fault must never stop the game
        problem = f"drafting failed ({type(error).__name__}: {error}); write the post with `pbp draft edit`"
        row = DraftBook(after.file).save_generated(phase, f"{after.id}: {phase}", f"({problem})\n", (),
                                                   forum.dialect, [problem])
    if forum.host_address:
        _mail_host(moderator, forum, after, row)


def publish_due(moderator: Any, on_event: Callable[[str], None] = lambda text: None) -> int:
    """Publish every game's approved drafts whose time has come (inside `pbp run`)."""
    from pbp.games import load
    forum = load_forum_settings(moderator.settings)
    games = [load(moderator, game_id) for game_id in moderator.folder.game_ids()]
    waiting = [g for g in games if any(r["status"] == "approved" for r in DraftBook(g.file).unpublished())]
    if not waiting:
        return 0
    publisher = service.make_publisher(forum, forum.dialect)
    return sum(len(service.publish_game(game, publisher, on_event=on_event)) for game in waiting)


HOST_HELP = ("pbp understood no approval in your mail. To approve a draft, reply to the draft's mail with "
             "its block, the line APPROVE un-commented:\n\n")


def _stamp(path: Any) -> tuple[int, int] | None:
    """The settings file's modification time and size: a changed file is read again."""
    try:
        status = os.stat(path) if path else None
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size) if status else None


@functools.lru_cache(maxsize=8)
def _host_address(settings: Any, stamp: tuple[int, int] | None) -> str:
    """[forum] host_address, read once per version of the settings file (asked for every
    inbound mail, where parsing the file each time cost as much as judging the mail)."""
    return load_forum_settings(settings).host_address


def host_mail(desk: Any, mail: Any) -> str | None:
    """Handle a mail from the host's address, or return None when it is not one.

    A block `BEGIN ORDERS <game> <phase>` holding `APPROVE` and the game's host token
    approves that draft (leak-checked: a draft that fails needs `pbp draft approve --force`).
    A wrong token is refused; anything else gets help."""
    moderator = desk.moderator
    host_address = _host_address(moderator.settings, _stamp(moderator.settings.source))
    if not host_address or mail.sender != host_address:
        return None
    from pbp.errors import UserError
    from pbp.games import load
    folder = moderator.folder
    games = folder.game_ids()
    target = next((b.game for b in mail.blocks if b.game in games), None) or (games[-1] if games else None)
    if target is None:
        return desk._record_without_game(mail, "host mail with no game to act on")
    game = load(moderator, target)
    book = DraftBook(game.file)
    outcome, reason, reply = "rejected", "host mail without an approval", None
    approvals = [b for b in mail.blocks if b.game == target and any(l.strip().upper() == "APPROVE" for l in b.lines)]
    with game.file.transaction():
        if approvals:
            block = approvals[0]
            if block.token != book.host_token():
                reason = "wrong host token"
                reply = (f"Refused: the TOKEN in your approval of {target} {block.phase} is not this game's "
                         f"host token. Reply to the draft's own mail, whose block holds the right token.")
            else:
                try:
                    row = service.approve(game, block.phase)
                    outcome, reason = "processed", f"approved {block.phase}"
                    reply = f"Approved the post for {target} {row['phase']}; it will be published shortly."
                except UserError as error:
                    reason, reply = f"approval refused: {error}", f"Not approved: {error}"
        else:
            phase = (book.unpublished() or [{"phase": game.record["phase_id"] or "over"}])[0]["phase"]
            reply = HOST_HELP + approval_form(target, phase, "<the host token from the draft's mail>")
        if reply and not mail.no_reply_reason:
            moderator.outbox.queue(game.file, phase=game.record["phase_id"] or "over", recipient=HOST,
                                   address=host_address, kind="host-reply",
                                   mail=RenderedMail(f"Re: {mail.subject}" if mail.subject else f"[{target}] pbp",
                                                     reply + "\n"),
                                   in_reply_to=mail.message_id, references=mail.references)
        row = desk._mail_row(mail, outcome, reason)
        game.file.mails.insert(row)
    desk._remember(desk._index(), row)
    return outcome


def watch_threads(moderator: Any, thread_reader: Any, on_warning: Callable[[str], None] = lambda text: None) -> list[str]:
    """Read each game's Reddit thread; for each new comment by a dead or silenced player,
    warn the host (status line and, with `[forum] host_address`, a mail)."""
    from pbp.forum.watch import watch_thread
    from pbp.games import load
    forum = load_forum_settings(moderator.settings)
    texts = []
    for game_id in moderator.folder.game_ids():
        game = load(moderator, game_id)
        book = DraftBook(game.file)
        settings = book.game_settings()
        if not settings.get("thread"):
            continue
        comments = thread_reader.thread_comments(settings["thread"])
        warnings = watch_thread(comments, game.record["roster"], game.rules.view(game.state, None),
                                seen=settings.get("watched", []))
        with game.file.transaction():
            book.update_game_settings({"watched": sorted({*settings.get("watched", []), *(c["id"] for c in comments)})})
            for warning in warnings:
                text = f"[{game_id}] {warning}"
                texts.append(text)
                on_warning(text)
                book.update_game_settings({"warnings": [*book.game_settings().get("warnings", []), text]})
                if forum.host_address:
                    moderator.outbox.queue(game.file, phase=game.record["phase_id"] or "over", recipient=HOST,
                                           address=forum.host_address, kind="thread-watch",
                                           mail=RenderedMail(f"[{game_id}] Thread watch: {warning.player} posted",
                                                             f"{warning}\nA host kill is `pbp modkill {game_id} {warning.player} <reason>`.\n"))
    return texts
