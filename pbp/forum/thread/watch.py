"""The thread watch: each game's public thread read on a rhythm (docs/design.md: Public
posts — the thread watch, votes in the thread, activity).

Each cycle of `pbp run` (pbp.daemon.cycle) reads each game's thread, on Reddit or on
Discourse, at most once per `[forum] watch_interval` seconds (the time of the last read is
kept in the game's file, so a restart does not read again early); `pbp publish` reads at
once. One read serves everything the thread tells, in one durable write:

- posts by players who were dead, or silenced, when they wrote them are warned about
  (pbp.forum.thread.watch_rules);
- with the option `votes` at `thread` or `both`, the votes posted there become stored
  orders (pbp.forum.thread.thread_votes);
- each post is kept (its revision, author, words, day) for the activity counts
  (pbp.forum.thread.activity) and so that the next read costs only the posts that changed.

A failure (the forum down, a rate limit) never stops the cycle: it is reported and tried
again next time. Before a phase whose votes come from the thread resolves, the cycle asks
`ThreadWatch.final_read`, which reads the thread once more (pbp.game.final_read).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from pbp.forum.config import ForumSettings, load_forum_settings
from pbp.game.final_read import needs_final_read, read_done, read_failed
from pbp.forum.thread.forum_names import confirm_links, identities, mail_link_codes
from pbp.forum.publishing.publisher import PermanentPublishError, TransientPublishError
from pbp.forum.thread.posts import ThreadReader
from pbp.forum.thread.thread_mail import note_for_host
from pbp.forum.thread.thread_votes import judge_posts, seen_posts
from pbp.forum.thread.vote_casting import VoteRead
from pbp.forum.thread.watch_rules import (  # noqa: F401 - the watch's rules, where their users import them
    PhaseFacts,
    Warning,
    dead_players,
    facts_at,
    facts_now,
    note_for_watch,
    opened_at,
    silenced_players,
    timeline_of,
    watch_thread,
)
from pbp.game.notifying.host_contact import host_note, tell_host
from pbp.game.vote_channels import takes_from_thread
from pbp.game.stored import StoredGame, load
from pbp.moderator import Moderator
from pbp.render.verdicts import Note
from pbp.storage.drafts import DraftBook


@dataclass
class ThreadRead:
    """What one read of a game's thread found: the host's warnings and the votes."""

    warnings: list[str] = field(default_factory=list)
    votes: VoteRead = field(default_factory=VoteRead)


def read_game_thread(
    moderator: Moderator, game_id: str, reader: ThreadReader, final: bool = False
) -> ThreadRead | None:
    """Read the game's thread and act on it in one durable write; None when the game has no
    thread yet. Raises the forum's errors (pbp.forum.publishing.publisher) when it cannot be
    read.
    """
    game = load(moderator, game_id)
    book = DraftBook(game.file)
    settings = book.game_settings()
    if takes_from_thread(game.votes) and game.phase is not None:
        with game.file.transaction():  # players the thread cannot know yet get a LINK code
            mail_link_codes(moderator, game)
    if not settings.get("thread"):
        return None
    posts = reader.thread_posts(settings["thread"])
    read = ThreadRead()
    with game.file.transaction():
        seen = seen_posts(game)
        known = identities(game)
        timeline = timeline_of(game)
        comments = [post.as_comment() for post in posts if not post.by_us and not post.deleted]
        warnings = watch_thread(
            comments,
            (),
            timeline,
            seen={*settings.get("watched", ()), *seen},
            player_of=known.player_at,
        )
        read.votes = judge_posts(moderator, game, posts, seen, known, timeline)
        confirm_links(moderator, game)
        book.update_game_settings({"watched_at": moderator.clock().timestamp()})
        for warning in warnings:
            read.warnings.append(_warn_host(moderator, game, book, warning))
        note_for_host(moderator, game, read.votes.notes)
        if final:
            read_done(game)
    return read


def _warn_host(moderator: Moderator, game: StoredGame, book: DraftBook, warning: Warning) -> str:
    """Keep a warning of the thread watch with the game's thread settings and mail it to the
    host; the warning as the watch reports it."""
    text = f"[{game.id}] {warning}"
    book.update_game_settings({"warnings": [*book.game_settings().get("warnings", []), text]})
    tell_host(
        moderator,
        game,
        "thread-watch",
        host_note(
            moderator,
            game,
            Note("thread_watch", game_id=game.id, player=warning.player, warning=str(warning)),
        ),
    )
    return text


def watch_threads(
    moderator: Moderator,
    thread_reader: ThreadReader,
    on_warning: Callable[[str], None] = lambda text: None,
    every: float = 0.0,
    games: Sequence[str] | None = None,
) -> list[str]:
    """Read each game's thread (see the module's docstring); return the host's warnings,
    also given to `on_warning`. `games` limits the watch to those games. `every` > 0 skips
    a game whose thread was read less than that many seconds ago. A thread the forum cannot
    give now is skipped with a note to `on_warning`."""
    now = moderator.clock().timestamp()
    texts = []
    for game_id in moderator.folder.game_ids() if games is None else games:
        book = DraftBook(load(moderator, game_id).file)
        if every and now - book.game_settings().get("watched_at", 0.0) < every:
            continue
        try:
            read = read_game_thread(moderator, game_id, thread_reader)
        except (TransientPublishError, PermanentPublishError) as error:
            on_warning(f"[{game_id}] thread watch: cannot read the thread now: {error}")
            continue
        for text in read.warnings if read else ():
            texts.append(text)
            on_warning(text)
    return texts


@dataclass
class WatchReport:
    """How the last thread watch went, for the daemon's log and `pbp status`."""

    ran: bool = False
    warnings: list[str] = field(default_factory=list)
    error: str = ""


def forum_reader(forum: ForumSettings) -> ThreadReader | None:
    """The reader of the configured forum (None for the files publisher: no thread to read)."""
    if forum.publisher == "reddit" and forum.reddit is not None:
        from pbp.forum.reddit import RedditPublisher  # praw is loaded only when used

        return RedditPublisher(forum.reddit)
    if forum.publisher == "discourse" and forum.discourse is not None:
        from pbp.forum.discourse import DiscourseForum

        return DiscourseForum(forum.discourse)
    return None


class ThreadWatch:
    """The forum's reader is kept between cycles (its login is reused) and rebuilt when the
    forum settings change; the settings file itself is read on every call, so a host who
    switches the forum on or off is followed at the next cycle."""

    def __init__(self, reader_for: Callable[[ForumSettings], ThreadReader | None] | None = None):
        self.reader_for = reader_for or forum_reader
        self._reader: tuple[Any, ThreadReader | None] | None = (
            None  # (the settings it was built from, the reader)
        )

    def reader(self, forum: ForumSettings) -> ThreadReader | None:
        key = (forum.publisher, forum.reddit, forum.discourse)
        if self._reader is None or self._reader[0] != key:
            self._reader = (key, self.reader_for(forum))
        return self._reader[1]

    def run(
        self, moderator: Moderator, on_warning: Callable[[str], None] = lambda text: None
    ) -> WatchReport:
        report = WatchReport()
        try:
            forum = load_forum_settings(moderator.settings)
        except Exception as error:  # a broken [forum] section is the host's to fix; say so
            return WatchReport(ran=True, error=f"{type(error).__name__}: {error}")
        if forum.publisher == "files":
            return report
        report.ran = True
        noted: list[str] = []
        try:
            reader = self.reader(forum)
            if reader is not None:
                report.warnings = watch_threads(
                    moderator, reader, noted.append, every=forum.watch_interval
                )
        except Exception as error:  # noqa: BLE001 - the watch must never stop the moderator
            self._reader = None  # log in afresh next time
            report.error = f"{type(error).__name__}: {error}"
        for text in report.warnings:
            on_warning(text)
        # What the watch noted besides its warnings is a thread it could not read.
        problems = [text for text in noted if text not in report.warnings]
        if problems and not report.error:
            report.error = problems[-1]
        return report

    def read_now(self, moderator: Moderator, game_id: str) -> bool:
        """Read one game's thread now, whatever the watch interval (before its prods are
        counted); False when it cannot be read now."""
        try:
            reader = self.reader(load_forum_settings(moderator.settings))
            if reader is not None:
                read_game_thread(moderator, game_id, reader)
        except Exception:  # noqa: BLE001 - the watch must never stop the moderator; retried next cycle
            self._reader = None
            return False
        return True

    def final_read(self, moderator: Moderator, game_id: str) -> str | None:
        """Read the thread of a game whose phase is due, if its votes come from the thread:
        None when the phase may resolve, else why it waits (the host is told;
        pbp.game.final_read)."""
        game = load(moderator, game_id)
        if not needs_final_read(game):
            return None
        try:
            reader = self.reader(load_forum_settings(moderator.settings))
            if reader is None:
                return None  # no forum to read: the votes are what pbp has
            read_game_thread(moderator, game_id, reader, final=True)
        except Exception as error:  # noqa: BLE001 - any failure to read means: wait, and say why
            self._reader = None
            return read_failed(
                moderator,
                load(moderator, game_id),
                (
                    f"{type(error).__name__}: {error}"
                    if not isinstance(error, (TransientPublishError, PermanentPublishError))
                    else str(error)
                ),
            )
        return None
