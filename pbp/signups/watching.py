"""Spectators' sign-up mail (docs/design.md: The dead and spectators): `WATCH <game>`,
`UNWATCH <game>` and their `CONFIRM` for a running game whose option `spectators` is
`all`; a confirmed watcher leaves the game's substitutes' list."""
from __future__ import annotations

from pbp import schedule
from pbp.game.options import spectators_mode
from pbp.game.stored import StoredGame
from pbp.moderator import Moderator
from pbp.signups.answers import Answer, ask_to_confirm, bad_code, holder_of, refusal
from pbp.signups.codes import take_request
from pbp.signups.substitutes import on_the_list
from pbp.signups.words import CONFIRM, SignupCommand


def watch_answer(moderator: Moderator, game: StoredGame, command: SignupCommand, sender: str) -> Answer:
    """The answer to WATCH, UNWATCH or CONFIRM for a running game."""
    record = game.record
    game_id, now = record.id, schedule.to_text(moderator.clock())
    watchers = list(record.watchers)
    if command.word == CONFIRM:
        request, pending = take_request(record.watch_pending, command.argument, sender, moderator.clock())
        if request is None:
            return bad_code(game_id, "WATCH or UNWATCH")
        if request["action"] == "unwatch":
            return Answer("processed", "unwatched", f"You no longer watch {game_id}",
                          [f"pbp sends you no more mail about {game_id}."],
                          changes={"watch_pending": pending, "watchers": tuple(w for w in watchers if w != sender)})
        refused = _watchrefusal(game, sender, watchers)
        if refused:
            return Answer("rejected", "watch refused", "Nothing changed", [refused],
                          changes={"watch_pending": pending})
        substitute = on_the_list(moderator.folder, game_id, sender)
        left = [f"You are no longer on the substitutes' list of {game_id}: a watcher has seen every role "
                "and night action, so is never dealt in."] if substitute else []
        return Answer("processed", "watching", f"You watch {game_id}",
                      [f"After each resolution of {game_id} you get the host's view of it: who gave which orders "
                       "and what happened. Watchers only watch: nothing you send reaches the players.", *left,
                       f"To stop, mail UNWATCH {game_id}."],
                      changes={"watch_pending": pending, "watchers": (*watchers, sender)},
                      leaves_substitutes=substitute)
    if command.word == "WATCH":
        refused = _watchrefusal(game, sender, watchers)
        if refused:
            return refusal("watch refused", refused)
        warning = [f"You are on the substitutes' list of {game_id}. If you confirm, you leave it: a watcher "
                   "sees every role and night action, so is never dealt in."
                   ] if on_the_list(moderator.folder, game_id, sender) else []
        return ask_to_confirm(holder_of(game), "watch", sender, "", now, f"Confirm that you watch {game_id}",
                              [f"You asked to watch game {game_id} ({record.ruleset}) as a spectator.", *warning])
    if sender not in watchers:
        return refusal("UNWATCH without watching", f"You are not watching {game_id}, so there is nothing to stop.")
    return ask_to_confirm(holder_of(game), "unwatch", sender, "", now, f"Confirm that you stop watching {game_id}",
                          [f"You asked to stop watching game {game_id}."])


def _watchrefusal(game: StoredGame, sender: str, watchers: list[str]) -> str:
    """Why `sender` may not watch `game`, or "" when they may."""
    game_id, mode = game.id, spectators_mode(game.record.moderator_options, game.rules.card)
    if game.roster.by_address(sender) is not None:
        return f"You play in {game_id}, and players cannot watch their own game."
    if game.phase is None:
        return f"Game {game_id} is over, so there is nothing left to watch."
    if mode != "all":
        return f"Game {game_id} takes no watchers: its host has set its option spectators to {mode}."
    if sender in watchers:
        return f"You watch {game_id} already; to stop, mail UNWATCH {game_id}."
    return ""
