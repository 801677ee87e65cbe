"""Who may post in a game's thread, and when (docs/rules/werewolf.md Day 5: "The public
thread watch warns the host"): the dead may not, nor a player silenced by the Howler during
their silenced day. The thread watch (pbp.forum.thread.watch) reads the threads; this module
judges what it read.

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

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

from engine.core import Ruleset, RulesetCard
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import StoredGame
from pbp.render.renderer import FINISHED
from pbp.storage.drafts import DraftBook


@dataclass(frozen=True)
class Warning:
    comment: str
    author: str
    player: str
    why: str

    def __str__(self) -> str:
        return (
            f"{self.player} (u/{self.author}) posted in the thread although {self.why} (comment"
            f" {self.comment})."
        )


@dataclass(frozen=True)
class PhaseFacts:
    """From `start` (seconds since the epoch) until the next entry, in phase `phase`:
    who was dead and who was silenced."""

    phase: str
    start: float
    dead: frozenset[str] = frozenset()
    silenced: frozenset[str] = frozenset()

    def to_json(self) -> dict[str, Any]:
        return {
            "phase": self.phase,
            "start": self.start,
            "dead": sorted(self.dead),
            "silenced": sorted(self.silenced),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PhaseFacts":
        return cls(
            data["phase"],
            float(data["start"]),
            frozenset(data.get("dead", ())),
            frozenset(data.get("silenced", ())),
        )


def silenced_players(rules: Ruleset, state: object, players: Iterable[str]) -> set[str]:
    """Who is silenced now, asked of each player's status (the engine tells only the
    silenced player, e.g. a Werewolf player during their silenced day)."""
    return {name for name in players if rules.status(state, name).silenced}


def dead_players(card: RulesetCard, public_view: Mapping[str, Any]) -> set[str]:
    """Who is dead, as the public view says (deaths are public; the card's public roster)."""
    return {character.name for character in card.public_roster(public_view) if not character.alive}


def facts_now(
    rules: Ruleset, state: object, players: Iterable[str], phase: str, start: float
) -> PhaseFacts:
    """The watch's facts for the game as it stands now, valid from `start` on."""
    return PhaseFacts(
        phase,
        start,
        frozenset(dead_players(rules.card, rules.view(state, None))),
        frozenset(silenced_players(rules, state, players)),
    )


def facts_at(timeline: Sequence[PhaseFacts], moment: float) -> PhaseFacts | None:
    """The entry in force at `moment`: the last one started by then. A comment older than
    the whole timeline is judged by its first entry (the earliest the watch knows). The
    timeline is kept in time order (`note_for_watch` appends), so this looks from its end."""
    if any(later.start < earlier.start for earlier, later in zip(timeline, timeline[1:])):
        timeline = sorted(timeline, key=lambda facts: facts.start)
    for facts in reversed(timeline):
        if facts.start <= moment:
            return facts
    return timeline[0] if timeline else None


def watch_thread(
    comments: Iterable[Mapping[str, Any]],
    roster: Iterable[RosterPlayer],
    timeline: Sequence[PhaseFacts],
    seen: Iterable[str] = (),
    player_of: Callable[[str, float], str | None] | None = None,
) -> list[Warning]:
    """Warnings for comments not seen before by players who were dead, or silenced, when
    they wrote them (`comment["created"]`, seconds since the epoch). Authors are players
    by the roster's forum names, or by `player_of(author, moment)` when given (names the
    players confirmed, pbp.forum.thread.forum_names)."""
    by_forum_name = {
        player.forum_name.lower(): player.name for player in roster if player.forum_name
    }
    seen = set(seen)
    warnings = []
    for comment in comments:
        if comment["id"] in seen:
            continue
        created = float(comment.get("created", 0.0))
        author = str(comment.get("author", ""))
        player = player_of(author, created) if player_of else by_forum_name.get(author.lower())
        facts = facts_at(timeline, created)
        if player is None or facts is None:
            continue
        if player in facts.dead:
            warnings.append(Warning(comment["id"], comment["author"], player, "they are dead"))
        elif player in facts.silenced:
            warnings.append(
                Warning(
                    comment["id"],
                    comment["author"],
                    player,
                    f"they were silenced for the day (phase {facts.phase})",
                )
            )
    return warnings


def opened_at(game: StoredGame) -> float:
    """When the game's open phase opened, in seconds since the epoch."""
    return game.opened.timestamp()


def note_for_watch(game: StoredGame, start: float) -> None:
    """Add the game as it stands now (who is dead, who is silenced) to the thread watch's
    timeline, valid from `start` (seconds since the epoch)."""
    book = DraftBook(game.file)
    facts = facts_now(
        game.rules,
        game.state,
        list(game.roster.names),
        game.phase.id if game.phase else FINISHED,
        start,
    )
    book.update_game_settings(
        {"timeline": [*book.game_settings().get("timeline", []), facts.to_json()]}
    )


def timeline_of(game: StoredGame) -> list[PhaseFacts]:
    """The thread watch's timeline of a game; a game with none yet (no resolution since it
    began) starts one with the game as it stands, from its open phase's start."""
    book = DraftBook(game.file)
    if not book.game_settings().get("timeline"):
        note_for_watch(game, opened_at(game))
    return [PhaseFacts.from_json(entry) for entry in book.game_settings()["timeline"]]
