"""Running vote counts on the game's rhythm (option `tally_every`, pbp.game.tally):
each cycle of `pbp run` drafts the count that fell due in every voting phase, like `pbp
draft tally`. With auto-publish `tally` (or `on`) a count that passes the leak check is
approved at once and goes out with the next publishing; otherwise it waits for the host
like any draft, and never holds up the posts after it (docs/design.md: Public posts)."""

from __future__ import annotations


from pbp.forum.publishing import drafting
from pbp.storage.drafts import DraftBook
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.post_renderer import thread_post_renderer
from pbp.game.clock import Running
from pbp.game.stored import load
from pbp.storage.index_moments import chore_due
from pbp.moderator import Moderator
from pbp.game.tally import due_slot, has_public_orders
from pbp.game.options import TALLY_AFTER_VOTES, tally_interval_of
from pbp.game.option_values import votes_after
from pbp.game.stored import StoredGame
from pbp.game.vote_channels import public_keyword
from pbp.timezones import as_utc

DONE_KEY = "tally_slots"  # the (phase, slot) counts already drafted, in the game's forum settings
COUNTED_KEY = "tally_votes"  # phase -> public orders given when its last count by votes was drafted


def draft_due_tallies(moderator: Moderator) -> list[str]:
    """Draft every running count due now, each once; the draft and the note that it was
    made are written in one durable write. Returns a line per count drafted."""
    now = moderator.clock()
    forum = None
    done = []
    index, moment = moderator.folder.index, now.timestamp()
    for game_id in index.games(
        moderator.folder.game_ids(),
        now=moment,
        due=lambda entry: chore_due(entry, moment, "tallies"),
    ):
        game = load(moderator, game_id)
        every = tally_interval_of(game.record.moderator_options)
        clock = game.clock
        if (
            every is None
            or game.phase is None
            or not isinstance(clock, Running)
            or clock.deadline is None
        ):
            continue
        if not has_public_orders(game.rules.card, game.phase):
            continue
        slot = due_slot(
            opened=as_utc(game.record.opened), deadline=clock.deadline, now=now, every=every
        )
        key = f"{game.phase.id}@{slot}"
        book = DraftBook(game.file)
        if slot is None or key in book.game_settings().get(DONE_KEY, []):
            continue
        forum = forum or load_forum_settings(moderator.settings)
        with game.file.transaction():
            row = drafting.draft_tally(thread_post_renderer(moderator, game), forum, game, now)
            book.update_game_settings({DONE_KEY: [*book.game_settings().get(DONE_KEY, []), key]})
        done.append(f"{game_id} {row.phase}: running count drafted ({row.status})")
    index.chore_seen(moment, "tallies")
    return done


def public_orders_given(game: StoredGame) -> int:
    """How many public orders were given in the open phase: each accepted block (a post or a
    mail) that changed what its player's public orders say (a vote, a changed vote, a vote
    taken back)."""
    card, said, given = game.rules.card, dict[str, list[str]](), 0
    for row in game.file.orders.where("phase", game.phase.id if game.phase else ""):
        public = [line for line in row["text"].splitlines() if public_keyword(line, card)]
        given += public != said.get(row["player"], [])
        said[row["player"]] = public
    return given


def draft_vote_tallies(moderator: Moderator) -> list[str]:
    """Option `tally_after_votes = N`: draft a running count in every game whose open phase
    has had N public orders given since its last such count. Only a changed game can have
    new votes, so the index names the games to look at."""
    done, forum = [], None
    for game_id in moderator.folder.index.games(moderator.folder.game_ids()):
        game = load(moderator, game_id)
        after = votes_after(game.moderator_option(TALLY_AFTER_VOTES))
        if after is None or game.phase is None or not isinstance(game.clock, Running):
            continue
        if not has_public_orders(game.rules.card, game.phase):
            continue
        book = DraftBook(game.file)
        counted = book.game_settings().get(COUNTED_KEY, {})
        given = public_orders_given(game)
        if given - int(counted.get(game.phase.id, 0)) < after:
            continue
        forum = forum or load_forum_settings(moderator.settings)
        with game.file.transaction():
            row = drafting.draft_tally(
                thread_post_renderer(moderator, game), forum, game, moderator.clock()
            )
            book.update_game_settings({COUNTED_KEY: {game.phase.id: given}})
        done.append(
            f"{game_id} {row.phase}: running count drafted after {after} votes ({row.status})"
        )
    return done
