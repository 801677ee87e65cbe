"""How much each player posts in the thread (docs/design.md: Public posts — activity), as
forum hosts count it: each living player's posts and words per game day, and a private
prod for a player who has posted too little (option `prod_below = N@T`).

- A post counts for the day in force when it was written (the phase's words up to the
  dash: `Day 2`, `Night 1`, `Turn 3`), read from the thread watch's timeline; its words
  are the author's own (quotes, code and spoilers left out, pbp.forum.thread.vote_lines).
- A post counts for a player through the same forum names as votes (pbp.forum.thread.forum_names).
- A prod goes out once per player and game day, at T before the deadline of a phase
  that takes public orders (a day of discussion; never a night), to each living player
  (NPCs aside) with fewer than N posts that day. `pbp status` lists who was prodded.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Callable, Sequence

from engine.core import RulesetCard
from pbp.forum.thread.forum_names import identities
from pbp.game.tally import has_public_orders
from pbp.forum.thread.thread_mail import tell_player
from pbp.forum.thread.watch_rules import PhaseFacts, facts_at
from pbp.game.clock import Running
from pbp.game.options import PROD_BELOW
from pbp.game.option_values import OptionValueError, prod_rule
from pbp.game.stored import StoredGame, load
from pbp.moderator import Moderator
from pbp.render.verdicts import Note
from pbp.storage.drafts import DraftBook
from pbp.storage.index_moments import chore_due
from pbp.render.moments import render_moment

PRODS_KEY = "prods"  # game forum settings: day -> {player: posts that day when prodded}


def day_words(card: RulesetCard, phase: str) -> str:
    """The game day a phase belongs to, in words: `Day 2` for `Day 2 — vote`."""
    return card.phase_words(phase).split(" — ")[0]


def day_of(timeline: Sequence[PhaseFacts], card: RulesetCard, moment: float) -> str:
    facts = facts_at(timeline, moment)
    return day_words(card, facts.phase) if facts is not None else ""


def activity(game: StoredGame) -> dict[str, dict[str, tuple[int, int]]]:
    """Day -> player -> (posts, words), from the posts as first read."""
    known = identities(game)
    first: dict[str, Any] = {}
    for row in game.file.thread_posts.each():
        first.setdefault(row["post"], row)
    counted: dict[str, dict[str, tuple[int, int]]] = {}
    for row in first.values():
        if "created" not in row:
            continue  # a stranger's post, kept as id, revision and author only
        player = known.player_at(row["author"], row["created"])
        if player is None:
            continue
        posts, words = counted.setdefault(row["day"], {}).get(player, (0, 0))
        counted[row["day"]][player] = (posts + 1, words + row["words"])
    return counted


def living_players(game: StoredGame) -> list[str]:
    dead = game.dead()
    return [name for name in game.roster.names if name not in dead]


def activity_lines(game: StoredGame, days: int = 1) -> list[str]:
    """For `pbp status` (the current day) and `pbp show` (every day): each living player's
    posts and words in the thread, fewest first, and who was prodded."""
    counted = activity(game)
    if not counted and not DraftBook(game.file).game_settings().get("thread"):
        return []
    order = list(
        dict.fromkeys(row["day"] for row in game.file.thread_posts.each() if row.get("day"))
    )
    current = day_words(game.rules.card, game.phase.id) if game.phase else ""
    shown = [day for day in [*order, current] if day][-days:] if days > 0 else order
    prods = DraftBook(game.file).game_settings().get(PRODS_KEY, {})
    lines = []
    for day in dict.fromkeys(shown):
        tally = counted.get(day, {})
        players = sorted(
            living_players(game), key=lambda name: (tally.get(name, (0, 0)), name.lower())
        )
        listed = ", ".join(
            f"{name} {tally.get(name, (0, 0))[0]} ({tally.get(name, (0, 0))[1]} words)"
            for name in players
        )
        lines.append(f"  thread activity, {day} (posts, words): {listed or 'nobody'}")
        if prods.get(day):
            lines.append(
                "    prodded: "
                + ", ".join(
                    f"{name} ({posts} post{'' if posts == 1 else 's'})"
                    for name, posts in prods[day].items()
                )
            )
    return lines


def prod_due(game: StoredGame) -> tuple[int, datetime, datetime] | None:
    """(posts wanted, when the prods fall due, the deadline) for the open phase, or None
    (the option off, no deadline, no public order in the phase)."""
    try:
        rule = prod_rule(game.moderator_option(PROD_BELOW))
    except OptionValueError:
        return None
    clock = game.clock
    if (
        rule is None
        or game.phase is None
        or not isinstance(clock, Running)
        or clock.deadline is None
    ):
        return None
    if not has_public_orders(game.rules.card, game.phase):
        return None
    return rule[0], clock.deadline - rule[1], clock.deadline


def queue_prods(
    moderator: Moderator, read_first: Callable[[Moderator, str], bool] | None = None
) -> list[str]:
    """Prod each living player below the game's `prod_below` (once per day), in every game
    whose prod moment has come; one line per prod, for the log. `read_first(moderator,
    game)` reads the game's thread before its posts are counted (the cycle passes the
    watch's), so a player who has just posted is not prodded; a game whose thread cannot
    be read now is prodded at a later cycle."""
    now = moderator.clock()
    index, moment = moderator.folder.index, now.timestamp()
    done = []
    for game_id in index.games(
        moderator.folder.game_ids(), now=moment, due=lambda entry: chore_due(entry, moment, "prods")
    ):
        game = load(moderator, game_id)
        due = prod_due(game)
        if due is None or not due[1] <= now < due[2]:
            continue
        if read_first is not None and not read_first(moderator, game_id):
            continue
        wanted, _, deadline = due
        done += _prod_low_posters(moderator, game_id, wanted, deadline)
    index.chore_seen(moment, "prods")
    return done


def _prod_low_posters(
    moderator: Moderator, game_id: str, wanted: int, deadline: datetime
) -> list[str]:
    """Prod each living player of the game with fewer than `wanted` posts on the open day
    who was not prodded that day yet; one line per prod, for the log."""
    game = load(moderator, game_id)
    done = []
    day = day_words(game.rules.card, game.open_phase.id)
    book = DraftBook(game.file)
    prods = dict(book.game_settings().get(PRODS_KEY, {}))
    counted = activity(game).get(day, {})
    low = {
        name: counted.get(name, (0, 0))[0]
        for name in living_players(game)
        if counted.get(name, (0, 0))[0] < wanted and name not in prods.get(day, {})
    }
    if not low:
        return []
    words = game.rules.card.phase_words(game.open_phase.id)
    with game.file.transaction():
        for name, posts in low.items():
            tell_player(
                moderator,
                game,
                name,
                "prod",
                Note(
                    "prod",
                    game_id=game.id,
                    day=day,
                    posts=posts,
                    wanted=wanted,
                    phase_words=words,
                    deadline=render_moment(
                        deadline, game.zone_of(name), game.roster.language_of(name)
                    ),
                    thread=game.thread_address,
                ),
            )
            done.append(
                f"{game_id} {day}: prodded {name} ({posts} post{'' if posts == 1 else 's'})"
            )
        book.update_game_settings({PRODS_KEY: {**prods, day: {**prods.get(day, {}), **low}}})
    return done
