"""The thread watch (docs/rules/werewolf.md Day 5: "The public thread watch warns the
host"): read the game's thread and find comments by players who may not post — the dead,
and a player silenced by the Howler during their silenced day.

Players are matched to comment authors through the roster's `forum_name`.

Each cycle (pbp.daemon.cycle, `pbp run`) reads each game's Reddit thread at most once per
`[forum] watch_interval` seconds (the time of the last read is kept in the game's file, so
a restart does not read again early) and warns the host of posts by dead or silenced
players; a failure (Reddit down, a rate limit) is reported and tried again next time.

A comment is judged by the game as it stood when the comment was written, not when the
watch reads it: a player who posted on their silenced day is flagged even if the watch
runs the next day, and the same player posting the next day is not. So the moderator
keeps a timeline (`PhaseFacts`), one entry each time the game changes (a resolution, a
host kill), saying from when on who was dead and who was silenced.

Who is silenced is private (rules/werewolf.md Night: "the target is told they are
silenced for the coming day"): the public view does not say, and must not. The watch is a
host tool, so it asks each player's own view (`me.silenced`), never the public view.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence, runtime_checkable

from engine.core import Ruleset, RulesetCard
from pbp import schedule
from pbp.forum.config import load_forum_settings
from pbp.forum.publisher import PermanentPublishError, TransientPublishError
from pbp.forum.reddit import RedditSettings
from pbp.game.host_contact import HOST
from pbp.game.record import RosterPlayer
from pbp.game.stored import StoredGame, load
from pbp.moderator import Moderator
from pbp.ports import RenderedMail
from pbp.render.renderer import FINISHED
from pbp.storage.drafts import DraftBook


@dataclass(frozen=True)
class Warning:
    comment: str
    author: str
    player: str
    why: str

    def __str__(self) -> str:
        return f"{self.player} (u/{self.author}) posted in the thread although {self.why} (comment {self.comment})."


@dataclass(frozen=True)
class PhaseFacts:
    """From `start` (seconds since the epoch) until the next entry, in phase `phase`:
    who was dead and who was silenced."""

    phase: str
    start: float
    dead: frozenset[str] = frozenset()
    silenced: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "start": self.start, "dead": sorted(self.dead),
                "silenced": sorted(self.silenced)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PhaseFacts":
        return cls(data["phase"], float(data["start"]), frozenset(data.get("dead", ())),
                   frozenset(data.get("silenced", ())))


def silenced_players(rules: Ruleset, state: object, players: Iterable[str]) -> set[str]:
    """Who is silenced now, asked of each player's status (the engine tells only the
    silenced player, e.g. a Werewolf player during their silenced day)."""
    return {name for name in players if rules.status(state, name).silenced}


def dead_players(card: RulesetCard, public_view: Mapping[str, Any]) -> set[str]:
    """Who is dead, as the public view says (deaths are public; the card's public roster)."""
    return {character.name for character in card.public_roster(public_view) if not character.alive}


def facts_now(rules: Ruleset, state: object, players: Iterable[str], phase: str, start: float) -> PhaseFacts:
    """The watch's facts for the game as it stands now, valid from `start` on."""
    return PhaseFacts(phase, start, frozenset(dead_players(rules.card, rules.view(state, None))),
                      frozenset(silenced_players(rules, state, players)))


def facts_at(timeline: Sequence[PhaseFacts], moment: float) -> PhaseFacts | None:
    """The entry in force at `moment`: the last one started by then. A comment older than
    the whole timeline is judged by its first entry (the earliest the watch knows)."""
    ordered = sorted(timeline, key=lambda facts: facts.start)
    current = ordered[0] if ordered else None
    for facts in ordered:
        if facts.start <= moment:
            current = facts
    return current


def watch_thread(comments: Iterable[Mapping[str, Any]], roster: Iterable[RosterPlayer], timeline: Sequence[PhaseFacts],
                 seen: Iterable[str] = ()) -> list[Warning]:
    """Warnings for comments not seen before by players who were dead, or silenced, when
    they wrote them (`comment["created"]`, seconds since the epoch)."""
    by_forum_name = {player.forum_name.lower(): player.name for player in roster if player.forum_name}
    seen = set(seen)
    warnings = []
    for comment in comments:
        if comment["id"] in seen:
            continue
        player = by_forum_name.get(str(comment.get("author", "")).lower())
        facts = facts_at(timeline, float(comment.get("created", 0.0)))
        if player is None or facts is None:
            continue
        if player in facts.dead:
            warnings.append(Warning(comment["id"], comment["author"], player, "they are dead"))
        elif player in facts.silenced:
            warnings.append(Warning(comment["id"], comment["author"], player,
                                    f"they were silenced for the day (phase {facts.phase})"))
    return warnings


# --------------------------------------------------------------------------- reading the threads
def opened_at(game: StoredGame) -> float:
    """When the game's open phase opened, in seconds since the epoch."""
    return schedule.from_text(game.record.opened).timestamp()


@runtime_checkable
class ThreadReader(Protocol):
    """What the watch reads a thread with (pbp.forum.reddit.RedditPublisher)."""

    def thread_comments(self, thread: str) -> list[dict[str, Any]]: ...


def note_for_watch(game: StoredGame, start: float) -> None:
    """Add the game as it stands now (who is dead, who is silenced) to the thread watch's
    timeline, valid from `start` (seconds since the epoch); see pbp.forum.watch."""
    book = DraftBook(game.file)
    names = list(game.roster.names)
    facts = facts_now(game.rules, game.state, names, game.phase.id if game.phase else FINISHED, start)
    book.update_game_settings({"timeline": [*book.game_settings().get("timeline", []), facts.to_json()]})


def timeline_of(game: StoredGame) -> list[PhaseFacts]:
    """The thread watch's timeline of a game; a game with none yet (no resolution since it
    began) starts one with the game as it stands, from its open phase's start."""
    book = DraftBook(game.file)
    if not book.game_settings().get("timeline"):
        note_for_watch(game, opened_at(game))
    return [PhaseFacts.from_json(entry) for entry in book.game_settings()["timeline"]]


def watch_threads(moderator: Moderator, thread_reader: ThreadReader,
                  on_warning: Callable[[str], None] = lambda text: None,
                  every: float = 0.0, games: Sequence[str] | None = None) -> list[str]:
    """Read each game's Reddit thread; for each new comment by a player who was dead, or
    silenced, when they wrote it, warn the host (the returned lines, `on_warning`, the
    game's `warnings` for `pbp status`, and with `[forum] host_address` a mail).

    `games` limits the watch to those games. `every` > 0 skips a game whose thread was read
    less than that many seconds ago. A thread Reddit cannot give now is skipped with a
    note to `on_warning`."""
    forum = load_forum_settings(moderator.settings)
    now = moderator.clock().timestamp()
    texts = []
    for game_id in moderator.folder.game_ids() if games is None else games:
        game = load(moderator, game_id)
        book = DraftBook(game.file)
        settings = book.game_settings()
        if not settings.get("thread") or (every and now - settings.get("watched_at", 0.0) < every):
            continue
        try:
            comments = thread_reader.thread_comments(settings["thread"])
        except (TransientPublishError, PermanentPublishError) as error:
            on_warning(f"[{game_id}] thread watch: cannot read the thread now: {error}")
            continue
        with game.file.transaction():
            warnings = watch_thread(comments, game.roster, timeline_of(game),
                                    seen=settings.get("watched", []))
            book.update_game_settings({"watched_at": now, "watched": sorted(
                {*settings.get("watched", []), *(c["id"] for c in comments)})})
            for warning in warnings:
                text = f"[{game_id}] {warning}"
                texts.append(text)
                on_warning(text)
                book.update_game_settings({"warnings": [*book.game_settings().get("warnings", []), text]})
                if moderator.settings.host_address:
                    moderator.outbox.queue(game.file, phase=game.filed_phase, recipient=HOST,
                                           address=moderator.settings.host_address, kind="thread-watch",
                                           mail=RenderedMail(f"[{game_id}] Thread watch: {warning.player} posted",
                                                             f"{warning}\nA host kill is `pbp modkill {game_id} {warning.player} <reason>`.\n"))
    return texts


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
