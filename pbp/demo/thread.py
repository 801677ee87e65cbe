"""The demo's forum (`pbp demo --votes thread`): a local Discourse for the demo's length
(pbp.demo.discourse_server), reached through pbp's real Discourse client. The scripted
players post their public orders (votes, nominations) in the game's thread, bold, as
forum players do, and mail the rest; before each resolution pbp reads the thread one last
time, publishes the running count, and the demo prints it as it was posted."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Callable

from pbp.demo.discourse_server import LocalDiscourse
from pbp.demo.thread_tour import ThreadTour
from pbp.forum import hooks
from pbp.forum.publishing import drafting
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.post_renderer import thread_post_renderer
from pbp.forum.thread.thread_mail import host_note_lines
from pbp.game.clock import Running
from pbp.game.tally import has_public_orders
from pbp.forum.thread.watch import ThreadWatch
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import StoredGame, load
from pbp.game.vote_channels import MAIL, public_keyword
from pbp.moderator import Moderator
from pbp.storage.drafts import DraftBook

BOT = "pbp"


def private_orders(game: StoredGame, orders: str) -> str:
    """The scripted orders a player mails: all of them, or without the public ones when
    the game takes those from its thread."""
    if game.votes == MAIL:
        return orders
    return "\n".join(
        line for line in orders.splitlines() if not public_keyword(line, game.rules.card)
    )


@dataclass
class DemoForum:
    server: LocalDiscourse
    settings: Path
    watch: ThreadWatch
    tour: ThreadTour = field(default_factory=ThreadTour)

    @classmethod
    def start(cls, data: Path) -> "DemoForum":
        server = LocalDiscourse(username=BOT, api_key=secrets.token_hex(16)).start()
        data.mkdir(parents=True, exist_ok=True)
        settings = data / "demo-forum.ini"
        settings.write_text(
            "[forum]\npublisher = discourse\nauto_publish = on\n\n[discourse]\nurl ="
            f" {server.url}\napi_username = {BOT}\napi_key = {server.api_key}\n",
            encoding="utf-8",
        )
        return cls(server, settings, ThreadWatch())

    def stop(self) -> None:
        self.server.stop()

    def publish(self, moderator: Moderator) -> None:
        hooks.publish_due(moderator)

    def post_votes(
        self,
        moderator: Moderator,
        game: StoredGame,
        entry: RosterPlayer,
        answered: set[str],
        seed: str,
    ) -> bool:
        """Post the player's public orders for the open phase in the thread, once; True
        when they have nothing else to give (no mail to send)."""
        phase = game.phase
        thread = DraftBook(game.file).game_settings().get("thread")
        if phase is None or not thread or entry.name not in phase.awaited or phase.id in answered:
            return False
        orders = game.rules.scripted_orders(game.state, entry.name, seed)
        public = [line for line in orders.splitlines() if public_keyword(line, game.rules.card)]
        posted = f"{phase.id}/posted"
        if public and posted not in answered:
            for text in self.tour.posts(game, entry.name, public):
                self.server.reply(
                    int(thread), text, entry.forum_name, moderator.clock().timestamp()
                )
            answered.add(posted)
        if private_orders(game, orders).strip():
            return False
        answered.add(phase.id)
        return True

    def before_resolution(
        self, moderator: Moderator, game: StoredGame, say: Callable[[str], None]
    ) -> None:
        """Read the thread one last time, publish the running count, print it as posted."""
        if game.phase is None or not has_public_orders(game.rules.card, game.phase):
            return
        told = self._late_vote(game)
        waits = self.watch.final_read(moderator, game.id)
        if waits:
            say(f"  ({waits})")
        forum = load_forum_settings(moderator.settings)
        with game.file.transaction():
            drafting.draft_tally(
                thread_post_renderer(moderator, game), forum, game, moderator.clock()
            )
        hooks.publish_due(moderator)
        posted = self.server.posts_by(BOT)[-1].raw
        say(
            "\n-- the running count, as posted in the thread"
            f" --\n{posted.split('<small>')[0].strip()}"
        )
        if told:
            say(
                "\n-- what else was posted in the thread in"
                f" {game.rules.card.phase_words(game.phase.id)} --"
            )
            say("\n".join(f"  {line}" for line in self.tour.told))
            notes = host_note_lines(load(moderator, game.id))
            say("\n-- what pbp did not count, as `pbp status` lists it for the host --")
            say("\n".join(notes or ["  (nothing)"]))

    def _late_vote(self, game: StoredGame) -> bool:
        """Post the tour's late vote a minute after the deadline; True in the tour's phase."""
        late = (
            self.tour.late_post()
            if game.phase is not None and game.phase.id == self.tour.phase
            else None
        )
        thread = DraftBook(game.file).game_settings().get("thread")
        clock = game.clock
        if late is None or not thread or not isinstance(clock, Running) or clock.deadline is None:
            return False
        player = game.roster.by_name(late[0])
        author = player.forum_name if player else late[0]
        self.server.reply(
            int(thread), late[1], author, (clock.deadline + timedelta(minutes=1)).timestamp()
        )
        return True
