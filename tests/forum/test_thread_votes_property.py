"""Property: the count pbp gets from votes posted in the thread is the count the engine
gets from the same orders sent by mail (docs/design.md: Public posts — votes in the
thread). Twin Werewolf games with one seed: one takes its nominations from a thread (read
through the project's ThreadReader interface, an in-memory forum here), the other by
mail; after the same sequence of nominations and take-backs, both hold the same orders,
draw the same running count and resolve to the same public events."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from hypothesis import HealthCheck, given, settings, strategies as st

from pbp.composition import ComposedModerator
from pbp.game.tally import running_tally
from pbp.forum.thread.posts import ThreadPost
from pbp.forum.thread.watch import read_game_thread
from pbp.game.create import create_game
from pbp.game.judging.order_lines import read_orders
from pbp.game.record_parts import RosterPlayer
from pbp.game.resolution import resolve_phase
from pbp.game.stored import load
from pbp.settings import load_settings
from pbp.storage.drafts import DraftBook
from tests.fixtures.clocks import Clock
from tests.forum.thread_forums import _settings

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Gita", "Hugo")


@dataclass
class MemoryThread:
    """A thread as a forum would give it (pbp.forum.thread.posts.ThreadReader)."""

    posts: list[ThreadPost] = field(default_factory=list)

    def thread_posts(self, thread: str) -> list[ThreadPost]:
        return list(self.posts)


def _games(tmp_path):
    clock = Clock()
    moderator = ComposedModerator(load_settings(str(_settings(tmp_path, {}))), clock=clock)
    moderator.__enter__()
    roster = [RosterPlayer(n, f"{n.lower()}@example.org", "", f"{n.lower()}_f") for n in NAMES]
    for game_id, votes in (("by-thread", "thread"), ("by-mail", "mail")):
        game = create_game(
            moderator, "werewolf", roster, seed="twin", game_id=game_id, options={"votes": votes}
        )
        with game.file.transaction():
            DraftBook(game.file).update_game_settings({"thread": "t1"})
    clock.advance(hours=30)
    for game_id in ("by-thread", "by-mail"):
        resolve_phase(moderator, game_id, "N0")
    return moderator, clock


votes = st.lists(
    st.tuples(st.integers(0, len(NAMES) - 1), st.one_of(st.none(), st.integers(0, len(NAMES) - 1))),
    min_size=1,
    max_size=25,
)


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cast=votes)
def test_thread_votes_count_as_the_same_orders_by_mail(tmp_path_factory, cast):
    moderator, clock = _games(tmp_path_factory.mktemp("twins"))
    try:
        thread = MemoryThread()
        for number, (voter, target) in enumerate(cast):
            moment = clock.tick(1)
            line = "UNNOMINATE" if target is None else f"**Nominate {NAMES[target].lower()}**"
            thread.posts.append(
                ThreadPost(
                    str(number),
                    f"{NAMES[voter].lower()}_f",
                    line,
                    moment,
                    revision="1",
                    url=f"https://forum.example/p/{number}",
                )
            )
            mail_game = load(moderator, "by-mail")
            phase = mail_game.open_phase
            mailed = "WITHDRAW NOMINATE" if target is None else f"NOMINATE {NAMES[target]}"
            read = read_orders(
                mail_game.rules,
                mail_game.state,
                phase,
                NAMES[voter],
                [mailed],
                lambda: mail_game.standing_lines(NAMES[voter]),
            )
            if read.errors:  # a take-back with nothing to take back: refused, as in the thread
                continue
            with mail_game.file.transaction():
                mail_game.file.orders.insert(
                    {
                        "phase": phase.id,
                        "player": NAMES[voter],
                        "text": "\n".join(read.canonical),
                        "received": "",
                        "message_id": "",
                        "mail_key": f"m{number}",
                    }
                )
        read_game_thread(moderator, "by-thread", thread)
        by_thread, by_mail = load(moderator, "by-thread"), load(moderator, "by-mail")
        assert running_tally(by_thread) == running_tally(by_mail)
        clock.advance(hours=30)
        public = [
            resolve_phase(moderator, game_id, "D1-nominate").public
            for game_id in ("by-thread", "by-mail")
        ]
        assert public[0] == public[1]
    finally:
        moderator.__exit__(None, None, None)
