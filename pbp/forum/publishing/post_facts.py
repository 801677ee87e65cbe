"""The facts a good host puts under every post (docs/design.md: Public posts): who is alive,
with their forum handles; who is dead, when, and with their flip once it is public; what
comes next and until when (in UTC); and, once the game is over, the log of every secret
action, phase by phase.

Everything here is read from the public view, the roster (handles, replacements) and, for
the end-of-game log only, the stored orders of a finished game, when nothing is secret any
more.
"""

from __future__ import annotations

from typing import Any, Mapping

from pbp.forum.thread.forum_names import forum_accounts
from pbp.game.clock import Running, WaitingForPost, Paused
from pbp.game.stored import StoredGame
from pbp.render.words import role_name
from pbp.game.options import thread_language
from pbp.render.moments import render_moment


def _handles(game: StoredGame) -> dict[str, str]:
    return forum_accounts(game)


def people(game: StoredGame, view: Mapping[str, Any]) -> dict[str, list[dict[str, str]]]:
    """`living`: each living character with their player's forum handle (NPCs have none);
    `dead`: each dead character with when they died and their flip, if public."""
    handles = _handles(game)
    living: list[dict[str, Any]] = []
    dead: list[dict[str, Any]] = []
    for character in game.rules.card.public_roster(view):
        if character.alive:
            living.append(
                {
                    "name": character.name,
                    "handle": handles.get(character.name, ""),
                    "npc": character.npc,
                }
            )
        else:
            dead.append(
                {"name": character.name, "when": character.died, "flip": role_name(character.flip)}
            )
    return {"living": living, "dead": dead}


def voting(game: StoredGame) -> dict[str, Any]:
    """Where the game takes its public orders (option `votes`: `mail`, `thread`, `both`), which
    they are (`orders`: NOMINATE, VOTE), the word a post takes each back with (`orders_back`:
    UNNOMINATE, UNVOTE), and `in_phase`, those the open phase takes: every public text says
    where votes go as this game takes them (docs/design.md: Public posts — votes in the
    thread)."""
    card = game.rules.card
    phase = game.phase
    in_phase = (
        []
        if phase is None
        else [
            keyword
            for keyword in card.public_orders
            if any(spec.keyword == keyword for specs in phase.grammar.values() for spec in specs)
        ]
    )
    back = {order: word for word, order in card.take_back_words}
    return {
        "where": game.votes,
        "orders": list(card.public_orders),
        "in_phase": in_phase,
        "orders_back": [back.get(order, "") for order in card.public_orders],
        "in_phase_back": [back.get(order, "") for order in in_phase],
    }


def next_step(game: StoredGame) -> dict[str, Any] | None:
    """The open phase in words, its kind, and its deadline in UTC (or why it has none yet),
    with where its votes go (`voting`)."""
    if game.phase is None:
        return None
    clock = game.clock
    if isinstance(clock, Running) and clock.deadline is not None:
        deadline = render_moment(
            clock.deadline, "UTC", thread_language(game.record.moderator_options)
        )
    elif isinstance(clock, (WaitingForPost, Paused)):
        deadline = clock.describe("UTC", thread_language(game.record.moderator_options))
    else:
        deadline = ""
    return {
        "phase": game.phase.id,
        "words": game.rules.card.phase_words(game.phase.id),
        "kind": game.phase.kind,
        "deadline": deadline,
        "voting": voting(game),
    }


def action_log(game: StoredGame) -> list[dict[str, Any]]:
    """Once the game is over: each resolved phase with the secret orders it was resolved
    with (the card's `logged_orders`: night actions, terminal uses), as
    `{"words", "actions": [{"name", "order"}]}`; phases with none are left out."""
    if game.phase is not None:
        return []
    logged = set(game.rules.card.logged_orders)
    phases = []
    for phase_id in game.record.resolved:
        actions = [
            {"name": player, "order": line.strip()}
            for player, row in sorted(game.latest_orders(phase_id).items())
            for line in row.lines
            if line.strip() and line.split()[0].upper() in logged
        ]
        if actions:
            phases.append({"words": game.rules.card.phase_words(phase_id), "actions": actions})
    return phases


def thread_facts(game: StoredGame, view: Mapping[str, Any]) -> dict[str, Any]:
    """Everything above, for a post's `extra`."""
    return {**people(game, view), "next": next_step(game), "action_log": action_log(game)}
