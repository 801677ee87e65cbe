"""Whole games played by scripted players, for `pbp simulate`, `pbp balance` and the
demo's engine side (docs/balance.md: How a game is simulated).

The table hands each scripted player only what its player would see (engine.players.Seen):
its view, its form, the public events, its own private events and the public thread where
the players post their claims. Pure like the rest of the engine: the same ruleset, player
count, seed, options and skill give the same games.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

from engine.core import Event, Phase, PlayerSpec, Result, Ruleset, json_strings, phase_rng
from engine.players import STAND_IN_SKILL, Post, ScriptedPlayer, Seen, SkillLike
from engine.seat_names import player_names


@dataclass(frozen=True)
class PlayedGame:
    """What one scripted game leaves for the statistics: its result and its figures."""

    result: Result | None
    statistics: Mapping[str, Any]


class Table:
    """One game played by scripted players: the state, each player's scripted player, the
    public thread and the events each player has not yet looked at."""

    def __init__(
        self,
        rules: Ruleset,
        players: int,
        seed: Any,
        options: Mapping[str, Any] | None,
        skill: SkillLike,
    ):
        self.rules, self.seed = rules, seed
        names = player_names(players)
        self.state = rules.new_game([PlayerSpec(name) for name in names], seed, options or {})
        self.players = {name: rules.scripted_player(name, skill) for name in names}
        self.thread: list[Post] = []
        self.snapshot: tuple[Post, ...] = ()  # the thread as a tuple, remade when it grows
        self.public: list[Event] = []
        self.read_up_to = dict.fromkeys(names, 0)
        self.mail: dict[str, list[Event]] = {name: [] for name in names}
        self.log: list[
            dict[str, str]
        ] = []  # each phase's order texts, by player (a replay's input)

    def seen(
        self, name: str, phase: Phase, coins: dict[str, int], view: Mapping[str, Any] | None = None
    ) -> Seen:
        """What `name` looks at in this phase: its view (`view`, when the caller made it
        already), its form, the events it has not seen yet (public and its own), the coins
        of the thread and of its team channels."""
        news = tuple(self.public[self.read_up_to[name] :])
        self.read_up_to[name] = len(self.public)
        mail, self.mail[name] = tuple(self.mail[name]), []
        team_coins = {}
        for channel in self.rules.status(self.state, name).channels:
            if channel not in coins:
                coins[channel] = coin(self.seed, phase.id, f"team/{channel}")
            team_coins[channel] = coins[channel]
        return Seen(
            name,
            phase.id,
            self.rules.view(self.state, name) if view is None else view,
            tuple(phase.grammar.get(name, ())),
            news,
            mail,
            self.thread_now(),
            coins[""],
            team_coins,
        )

    def thread_now(self) -> tuple[Post, ...]:
        """The thread as it stands, one tuple for every reader until it grows (a scripted
        player that sees the very tuple it read before, or another player read, may reuse
        what it made of it)."""
        if len(self.snapshot) != len(self.thread):
            self.snapshot = tuple(self.thread)
        return self.snapshot

    def caught_up(self, seen: dict[str, Seen]) -> dict[str, Seen]:
        """Each look at the phase with the thread as it stands now; while the thread has not
        grown the looks are kept as they are (most phases have no talk, and remaking every
        look for every round was a large part of a phase's cost)."""
        thread = self.thread_now()
        if not seen or next(iter(seen.values())).thread is thread:
            return seen
        return {name: with_thread(look, thread) for name, look in seen.items()}

    def play_phase(self, phase: Phase) -> None:
        acting = [name for name in phase.actors if phase.grammar.get(name) and name in self.players]
        coins = {"": coin(self.seed, phase.id, "thread")}
        views = self.rules.views(self.state, acting)
        seen = {name: self.seen(name, phase, coins, views[name]) for name in acting}
        chance = {name: phase_rng(self.seed, phase.id, f"player/{name}") for name in acting}
        for _round in range(TALK_ROUNDS):
            seen = self.caught_up(seen)
            for name in acting:
                self.thread.extend(self.players[name].talk(seen[name], chance[name]))
        seen = self.caught_up(seen)
        orders, texts = {}, {}
        for name in acting:
            texts[name] = self.players[name].orders(seen[name], chance[name])
            orders[name] = self.rules.parse_orders(self.state, name, texts[name].splitlines())
        self.log.append(texts)
        resolution = self.rules.resolve(self.state, orders)
        self.public.extend(resolution.public)
        for name, events in resolution.private.items():
            if name in self.mail:
                self.mail[name].extend(events)
        self.state = resolution.state


# Two rounds of talk before the orders of a phase: a claim, then the answers to it.
TALK_ROUNDS = 2


def coin(seed: Any, phase_id: str, purpose: str) -> int:
    """A random number every reader of one channel (the thread, a team) sees alike, drawn
    from (seed, phase, purpose) by SHA-256 like `phase_rng`."""
    material = json_strings(str(seed), phase_id, f"coin/{purpose}")
    return int.from_bytes(hashlib.sha256(material).digest()[:8], "big")


def with_thread(seen: Seen, thread: tuple[Post, ...]) -> Seen:
    """The same look at the phase with the thread as it stands now."""
    return Seen(
        seen.name,
        seen.phase,
        seen.view,
        seen.grammar,
        seen.news,
        seen.mail,
        thread,
        seen.coin,
        seen.team_coins,
    )


def play_table(
    rules: Ruleset,
    players: int,
    seed: Any,
    options: Mapping[str, Any] | None = None,
    skill: SkillLike = STAND_IN_SKILL,
    max_phases: int = 10_000,
) -> Table:
    """Play one game to its end with every player scripted; returns the finished table."""
    table = Table(rules, players, seed, options, skill)
    for _ in range(max_phases):
        phase = rules.phase(table.state)
        if phase is None:
            return table
        table.play_phase(phase)
    raise RuntimeError(f"game with seed {seed!r} did not end within {max_phases} phases")


def play_game(
    rules: Ruleset,
    players: int,
    seed: Any,
    options: Mapping[str, Any] | None = None,
    skill: SkillLike = STAND_IN_SKILL,
) -> Any:
    """Play one game to its end with every player scripted; returns the final state."""
    return play_table(rules, players, seed, options, skill).state


def play_games(
    rules: Ruleset,
    players: int,
    games: int,
    seed: Any,
    options: Mapping[str, Any] | None = None,
    on_game: Callable[[int], None] | None = None,
    skill: SkillLike = STAND_IN_SKILL,
) -> list[PlayedGame]:
    """`games` games; game i uses the seed `"<seed>/<i>"`. `on_game(i)` reports progress."""
    records = []
    for index in range(games):
        records.append(play_record(rules, players, game_seed(seed, index), options, skill))
        if on_game:
            on_game(index + 1)
    return records


def game_seed(seed: Any, index: int) -> str:
    """The seed of the `index`-th game of a run: every game of a run is replayable alone."""
    return f"{seed}/{index}"


def play_record(
    rules: Ruleset,
    players: int,
    seed: Any,
    options: Mapping[str, Any] | None = None,
    skill: SkillLike = STAND_IN_SKILL,
) -> PlayedGame:
    """One game played to its end, kept as its result and statistics."""
    state = play_game(rules, players, seed, options, skill)
    return PlayedGame(rules.result(state), rules.game_statistics(state))


def one_off_orders(
    rules: Ruleset,
    state: Any,
    player: str,
    seed: Any,
    news: tuple[Event, ...] = (),
    mail: tuple[Event, ...] = (),
    skill: SkillLike = STAND_IN_SKILL,
) -> str:
    """The orders a scripted player who is new to the game sends now (the demo's players
    and `Ruleset.scripted_orders`): it reads the view, the form and whatever history the
    caller hands it (`news`, `mail`), with an empty thread."""
    phase = rules.phase(state)
    if phase is None or not phase.grammar.get(player):
        return ""
    channels = rules.status(state, player).channels
    seen = Seen(
        name=player,
        phase=phase.id,
        view=rules.view(state, player),
        grammar=tuple(phase.grammar[player]),
        news=news,
        mail=mail,
        thread=(),
        coin=coin(seed, phase.id, "thread"),
        team_coins={channel: coin(seed, phase.id, f"team/{channel}") for channel in channels},
    )
    scripted: ScriptedPlayer = rules.scripted_player(player, skill)
    return scripted.orders(seen, phase_rng(seed, phase.id, f"player/{player}"))


def summarize(records: Iterable[PlayedGame]) -> dict[str, Any]:
    """Wins by team and by path, mean turns, deaths by cause and actions used, summed."""
    records = list(records)
    wins_by_team: Counter[str] = Counter()
    wins_by_path: Counter[str] = Counter()
    deaths: Counter[str] = Counter()
    npc_deaths: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    turns = 0
    for record in records:
        winners = (
            "+".join(record.result.winners) if record.result and record.result.winners else "draw"
        )
        wins_by_team[winners] += 1
        wins_by_path[record.result.path if record.result else "unfinished"] += 1
        turns += record.statistics.get("turns", 0)
        deaths.update(record.statistics.get("deaths_by_cause", {}))
        npc_deaths.update(record.statistics.get("npc_deaths", {}))
        actions.update(record.statistics.get("actions_used", {}))
    return {
        "games": len(records),
        "wins_by_team": dict(sorted(wins_by_team.items())),
        "wins_by_path": dict(sorted(wins_by_path.items())),
        "mean_turns": round(turns / len(records), 3) if records else 0,
        "deaths_by_cause": dict(sorted(deaths.items())),
        **({"npc_deaths": dict(sorted(npc_deaths.items()))} if npc_deaths else {}),
        "actions_used": dict(sorted(actions.items())),
    }
