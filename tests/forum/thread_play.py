"""A game whose votes are cast in its forum thread, driven as the thread-vote tests need:
the moderator on a hand-moved clock, the thread published by pbp, players' posts, and
the deadline's resolution through the production gate (the thread read one last time,
pbp.game.final_read)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

from pbp.composition import ComposedModerator
from pbp.forum import hooks
from pbp.forum.thread.watch import ThreadWatch
from pbp.game.clock import Running
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.resolution import ResolutionSummary, resolve_due
from pbp.game.stored import StoredGame, load
from pbp.settings import load_settings
from pbp.storage.drafts import DraftBook
from tests.fixtures.clocks import Clock

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Gita", "Hugo", "Ines")
GAME = "g1"


def account(name: str) -> str:
    """A player's forum account, as the host wrote it in the roster."""
    return f"{name.lower()}_f"


@dataclass
class ThreadPlay:
    forum: Any  # tests.forum.thread_forums.RedditForum or DiscourseForum
    moderator: ComposedModerator
    clock: Clock
    watch: ThreadWatch = field(default_factory=ThreadWatch)

    @classmethod
    def start(
        cls,
        forum: Any,
        tmp_path: Path,
        ruleset: str,
        options: dict[str, str] | None = None,
        names: tuple[str, ...] = NAMES,
        forum_names: bool = True,
        seed: str = "s1",
    ) -> "ThreadPlay":
        clock = Clock()
        moderator = ComposedModerator(
            load_settings(str(forum.settings_file(tmp_path))), clock=clock
        )
        moderator.__enter__()
        roster = [
            RosterPlayer(n, f"{n.lower()}@example.org", "", account(n) if forum_names else "")
            for n in names
        ]
        game = create_game(
            moderator,
            ruleset,
            roster,
            seed=seed,
            game_id=GAME,
            options={"votes": "thread", **(options or {})},
        )
        with game.file.transaction():
            DraftBook(game.file).update_game_settings({"auto_publish": True})
        play = cls(forum, moderator, clock)
        play.publish()
        return play

    def close(self) -> None:
        self.moderator.__exit__(None, None, None)

    @property
    def game(self) -> StoredGame:
        return load(self.moderator, GAME)

    @property
    def thread(self) -> str:
        return str(DraftBook(self.game.file).game_settings()["thread"])

    def publish(self) -> int:
        return hooks.publish_due(self.moderator)

    def post(self, player_or_account: str, text: str, minutes: float = 1) -> Any:
        """A post in the thread, `minutes` after the last moment (the clock moves on)."""
        author = account(player_or_account) if player_or_account in NAMES else player_or_account
        return self.forum.post(self.thread, author, text, self.clock.tick(minutes))

    def read(self) -> None:
        """One read of the thread by the watch (as a cycle of `pbp run` does)."""
        self.clock.tick(11)  # past the watch interval
        report = self.watch.run(self.moderator)
        assert report.ran and not report.error, report

    @property
    def deadline(self) -> float:
        clock = self.game.clock
        assert isinstance(clock, Running) and clock.deadline is not None
        return clock.deadline.timestamp()

    def past_deadline(self, minutes: float = 1) -> None:
        clock = self.game.clock
        assert isinstance(clock, Running) and clock.deadline is not None
        self.clock.moment = max(self.clock.moment, clock.deadline + timedelta(minutes=minutes))

    def resolve_due(self) -> list[ResolutionSummary]:
        """What a cycle of `pbp run` does at the deadline: the gate, then the resolution."""
        return resolve_due(self.moderator, gate=self.watch.final_read)

    def to_day_one(self) -> str:
        """Resolve Night 0 (nothing to order) and publish: the thread exists, Day 1's
        nominations are open. Returns the phase."""
        self.past_deadline()
        (summary,) = self.resolve_due()
        self.publish()
        return summary.next_phase

    def mails(self, kind: str, recipient: str | None = None) -> list[dict[str, Any]]:
        """The mail pbp queued of one kind (to one recipient), oldest first."""
        return [
            row
            for row in self.game.file.outbox.all()
            if row["kind"] == kind and (recipient is None or row["recipient"] == recipient)
        ]

    def stored_orders(self, phase: str) -> dict[str, str]:
        return {player: row.text for player, row in self.game.latest_orders(phase).items()}
