"""The one thread watch (docs/design.md: Public posts, thread watch): each cycle
(pbp.daemon.cycle, `pbp run`) reads each game's Reddit thread at most once per `[forum]
watch_interval` seconds (the time of the last read is kept in the game's file, so a
restart does not read again early) and warns the host of posts by dead or silenced players
(pbp.forum.hooks.watch_threads)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pbp.forum.config import load_forum_settings
from pbp.forum.hooks import watch_threads
from pbp.forum.reddit import RedditSettings
from pbp.moderator import Moderator


@dataclass
class WatchReport:
    """How the last thread watch went, for the daemon's log and `pbp status`."""

    ran: bool = False
    warnings: list[str] = field(default_factory=list)
    error: str = ""


class ThreadWatch:
    """The praw reader is kept between cycles (its login is reused) and rebuilt when the
    `[reddit]` settings change; the settings file itself is read on every call, so a host
    who switches the publisher on or off is followed at the next cycle. A failure (Reddit
    down, a rate limit) never stops the cycle: it is reported and tried again next time."""

    def __init__(self, reader_for: Callable[[RedditSettings], Any] | None = None):
        self.reader_for = reader_for or _praw_reader
        self._reader: tuple[RedditSettings, Any] | None = None  # (the settings it was built from, the reader)

    def run(self, moderator: Moderator, on_warning: Callable[[str], None] = lambda text: None) -> WatchReport:
        report = WatchReport()
        try:
            forum = load_forum_settings(moderator.settings)
        except Exception as error:  # a broken [forum] section is the host's to fix; say so
            return WatchReport(ran=True, error=f"{type(error).__name__}: {error}")
        if forum.publisher != "reddit" or forum.reddit is None:
            return report
        report.ran = True
        noted: list[str] = []
        try:
            if self._reader is None or self._reader[0] != forum.reddit:
                self._reader = (forum.reddit, self.reader_for(forum.reddit))
            report.warnings = watch_threads(moderator, self._reader[1], noted.append, every=forum.watch_interval)
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


def _praw_reader(reddit_settings: RedditSettings) -> Any:
    from pbp.forum.reddit import RedditPublisher  # praw is loaded only when used
    return RedditPublisher(reddit_settings)
