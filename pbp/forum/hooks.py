"""Where the moderator loop calls the public thread (docs/design.md: Public posts): after each
resolution and each public host action (draft it, mail it to the host, note the game for the
thread watch), in each turn of `pbp run` (publish what is approved, watch the Reddit threads),
and for mail from the host's address (`APPROVE` by mail)."""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from pbp.forum.publishing import drafting
from pbp.forum.publishing import publish
from pbp.storage.drafts import OPENING, DraftBook, DraftRow
from pbp.forum.config import ForumSettings, load_forum_settings
from pbp.forum.publishing.post_renderer import thread_post_renderer
from pbp.forum.thread.watch_rules import note_for_watch, opened_at
from pbp.game.resolution import Resolved
from pbp.game.stored import StoredGame, load
from pbp.moderator import Moderator
from pbp.game.notifying.host_contact import HOST
from pbp.storage.host_token import host_token


def _mail_host(moderator: Moderator, forum: ForumSettings, game: StoredGame, row: DraftRow) -> None:
    """Mail the host a draft (templates/mail/draft_for_host.j2) with its approval block."""
    mail = moderator.host_renderer.render(
        "draft_for_host",
        game.record.ruleset,
        game=game.game_facts(),
        phase=row.phase,
        title=row.title,
        text=row.text.rstrip(),
        leaks=row.leaks,
        token=host_token(game.file),
    )
    moderator.outbox.queue(
        game.file,
        phase=row.phase,
        recipient=HOST,
        address=moderator.settings.host_address,
        kind="draft",
        mail=mail,
    )


def _drafted(
    moderator: Moderator,
    forum: ForumSettings,
    game: StoredGame,
    key: str,
    draft: Callable[[], DraftRow],
) -> DraftRow:
    """Run `draft`; a template fault never stops the game: the host gets a placeholder
    draft saying what failed, to write by hand."""
    try:
        return draft()
    except Exception as error:  # noqa: BLE001 - a template fault must never stop the game
        problem = (
            f"drafting failed ({type(error).__name__}: {error}); write the post with `pbp draft"
            " edit`"
        )
        book = DraftBook(game.file)
        return book.save_generated(
            key,
            f"{game.id}: {key}",
            f"({problem})\n",
            (),
            drafting.dialect_of(book, forum).name,
            [problem],
        )


def after_resolution(moderator: Moderator, resolved: Resolved) -> None:
    """Draft the post for a resolved phase and mail it to the host (call inside the
    resolution's transaction, so the draft is written with it); note the new phase for
    the thread watch.

    A resolution with no public event gets no post: Werewolf's `Nn` when `Nn-witch`
    follows ("nothing is published between them", rules/werewolf.md Night); an empty
    post would only wait for the host's approval and hold up the posts after it."""
    forum = load_forum_settings(moderator.settings)
    before, after, phase, public_events = (
        resolved.before,
        resolved.after,
        resolved.phase.id,
        resolved.public,
    )
    if not DraftBook(after.file).game_settings().get("timeline"):
        note_for_watch(before, opened_at(before))  # the game's first phase
    note_for_watch(after, opened_at(after))
    if not public_events:
        return
    row = _drafted(
        moderator,
        forum,
        after,
        phase,
        lambda: drafting.draft_resolution(
            thread_post_renderer(moderator, after), forum, before, after, phase, public_events
        ),
    )
    if moderator.settings.host_address:
        _mail_host(moderator, forum, after, row)


def after_host_action(
    moderator: Moderator,
    before: StoredGame,
    after: StoredGame,
    public_events: Sequence[Mapping[str, Any]],
) -> None:
    """A public host action (a substitution, a host kill) during `before`'s open phase:
    draft its public announcement as its own post (`<phase>/host-N`, see
    drafting.draft_host_action), mail it to the host, and note the game for the thread
    watch (a host kill kills at once). Call inside the action's transaction."""
    forum = load_forum_settings(moderator.settings)
    phase = before.phase.id if before.phase else before.filed_phase
    book = DraftBook(after.file)
    key = drafting.host_action_key(book, phase)
    row = _drafted(
        moderator,
        forum,
        after,
        key,
        lambda: drafting.draft_host_action(
            thread_post_renderer(moderator, after), forum, after, phase, public_events
        ),
    )
    if not book.game_settings().get("timeline"):
        note_for_watch(before, opened_at(before))
    note_for_watch(after, moderator.clock().timestamp())
    if moderator.settings.host_address:
        _mail_host(moderator, forum, after, row)


def after_game_created(moderator: Moderator, game: StoredGame) -> None:
    """Draft the game's opening post (rules, setup, players, how to send orders) and mail
    it to the host; call inside the game's first write."""
    forum = load_forum_settings(moderator.settings)
    row = _drafted(
        moderator,
        forum,
        game,
        OPENING,
        lambda: drafting.draft_opening(thread_post_renderer(moderator, game), forum, game),
    )
    if moderator.settings.host_address:
        _mail_host(moderator, forum, game, row)


def publish_due(moderator: Moderator, on_event: Callable[[str], None] = lambda text: None) -> int:
    """Publish every game's approved drafts whose time has come (inside `pbp run`)."""
    forum = load_forum_settings(moderator.settings)
    folder = moderator.folder
    games = [
        load(moderator, game_id)
        for game_id in folder.index.games(folder.game_ids(), flag="approved")
    ]
    waiting = [
        g for g in games if any(r.status == "approved" for r in DraftBook(g.file).unpublished())
    ]
    if not waiting:
        return 0
    publisher = publish.make_publisher(forum)
    return sum(len(publish.publish_game(game, publisher, on_event=on_event)) for game in waiting)
