"""Replay a game from its seed and order log (docs/design.md: Engine contract, "replaying the
order log reproduces the game"; `pbp replay`).

Pure: a ruleset, the roster's characters, the seed, the options and the logged steps go
in; the state after every step comes out. `compare` then finds the first step at which the
stored history differs from the reproduction, and the first place inside the state where
it does, so the host sees *where* a game went wrong, not only *that* it did.

A step is either the resolution of one phase from the order lines each player had
accepted when it closed, or a host kill. Nothing else the host does touches the engine
state: extend, pause and resume move deadlines; substitute changes who plays a character,
not the character (see pbp.host.substitute).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from engine.core import PlayerSpec, Resolution, Ruleset, canonical_json
from pbp.game.record_parts import HostAction
from pbp.game.stored import StoredGame, load
from pbp.game.checkpoints import state_digest
from pbp.moderator import Moderator
from pbp.game.standing_orders import standing_orders

RESOLVE = "resolve"
HOST_KILL = "host_kill"


@dataclass(frozen=True)
class Step:
    """One logged step. For `resolve`: `orders` maps each player to the order lines that
    were accepted for `phase` when it closed. For `host_kill`: `player` and `reason`."""

    kind: str
    phase: str
    orders: Mapping[str, Sequence[str]] = field(default_factory=dict)
    player: str = ""
    reason: str = ""

    def describe(self) -> str:
        if self.kind == HOST_KILL:
            return f"host kill of {self.player} in {self.phase}"
        return f"resolution of {self.phase}"


@dataclass(frozen=True)
class Checkpoint:
    """The state (as JSON) after a step; `label` says which (`start` for the new game)."""

    label: str
    state: Any


@dataclass(frozen=True)
class Divergence:
    """Where the stored history and the reproduction part ways."""

    label: str
    path: str
    stored: Any
    replayed: Any

    def __str__(self) -> str:
        if not self.path:
            return f"After {self.label}: {self.replayed}"
        return (
            f"After {self.label}: at {self.path} the stored game has "
            f"{_short(self.stored)} but the replay gives {_short(self.replayed)}."
        )


class ReplayError(ValueError):
    """The log cannot be replayed (orders the engine refuses, a step for the wrong phase)."""

    def __init__(self, label: str, message: str, checkpoints: Sequence[Checkpoint]):
        super().__init__(f"After {label}: {message}")
        self.label = label
        self.checkpoints = tuple(checkpoints)


def replay(
    rules: Ruleset,
    players: Sequence[PlayerSpec],
    seed: Any,
    options: Mapping[str, Any],
    steps: Sequence[Step],
) -> list[Checkpoint]:
    """The state after the new game and after every step, each as plain JSON."""
    state = rules.new_game(list(players), seed, dict(options))
    checkpoints = [Checkpoint("start", rules.to_json(state))]
    for step in steps:
        state = _apply(rules, state, step, checkpoints)
        checkpoints.append(Checkpoint(step.describe(), rules.to_json(state)))
    return checkpoints


def _apply(rules: Ruleset, state: Any, step: Step, done: Sequence[Checkpoint]) -> Any:
    phase = rules.phase(state)
    if phase is None or phase.id != step.phase:
        open_phase = phase.id if phase else "no phase (the game is over)"
        raise ReplayError(
            done[-1].label,
            f"the log's next step is the {step.describe()}, "
            f"but the replayed game is in {open_phase}.",
            done,
        )
    return step_resolution(rules, state, step).state


def step_resolution(rules: Ruleset, state: Any, step: Step) -> Resolution:
    """What one step does to `state` (its open phase must be the step's)."""
    if step.kind == HOST_KILL:
        return rules.host_kill(state, step.player, step.reason)
    phase = rules.phase(state)
    assert phase is not None  # the caller checked that the open phase is the step's
    return rules.resolve(state, standing_orders(rules, state, phase, step.orders))


def compare(stored: Sequence[Checkpoint], replayed: Sequence[Checkpoint]) -> Divergence | None:
    """The first divergence between stored checkpoints and the replay, or None.

    `stored` may hold fewer checkpoints than the replay (a game that keeps only its current
    state stores one, labelled like the replay's last); they are matched by label, in
    order. A stored checkpoint the replay never reached is a divergence too.
    """
    by_label = {checkpoint.label: checkpoint for checkpoint in replayed}
    for checkpoint in stored:
        mine = by_label.get(checkpoint.label)
        if mine is None:
            return Divergence(
                checkpoint.label,
                "",
                None,
                "the stored game has this step but the replay never reaches it.",
            )
        difference = first_json_difference(checkpoint.state, mine.state)
        if difference is not None:
            path, stored_value, replayed_value = difference
            return Divergence(checkpoint.label, path, stored_value, replayed_value)
    return None


def first_json_difference(
    stored: Any, replayed: Any, path: str = ""
) -> tuple[str, Any, Any] | None:
    """The first (in sorted-key order) JSON path where two values differ, with both values."""
    if canonical_json(stored) == canonical_json(replayed):
        return None
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in sorted(set(stored) | set(replayed), key=str):
            if key not in stored or key not in replayed:
                return (
                    f"{path}.{key}",
                    stored.get(key, "<missing>"),
                    replayed.get(key, "<missing>"),
                )
            found = first_json_difference(stored[key], replayed[key], f"{path}.{key}")
            if found:
                return found
    if isinstance(stored, list) and isinstance(replayed, list):
        for index, (a, b) in enumerate(zip(stored, replayed)):
            found = first_json_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(stored) != len(replayed):
            return (f"{path} (length)", len(stored), len(replayed))
    return (path or "(the whole state)", stored, replayed)


def _short(value: Any, limit: int = 80) -> str:
    text = canonical_json(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class ReplayReport:
    steps: int
    divergence: Divergence | None
    error: str = ""
    # The rules version the game started under and the one this pbp runs (its card's).
    started_under: int = 0
    runs: int = 0

    @property
    def reproduced(self) -> bool:
        return self.divergence is None and not self.error

    def explained(self) -> str:
        """Where the replay and the stored game part ways, in one sentence that names the
        rules versions when the game started under others than run now."""
        where = self.error or str(self.divergence)
        if self.started_under == self.runs:
            return where
        return (
            f"The game started under rules version {self.started_under} and this pbp runs version "
            f"{self.runs}; replayed under version {self.runs}, {where[0].lower()}{where[1:]}"
        )


def replay_steps(game: StoredGame) -> list[Step]:
    """The game's history as replay steps: for each resolved phase, the host kills made
    while it was open, then its resolution from each actor's latest accepted orders; then
    the host kills of the open phase (or of the phase a host kill ended the game in)."""
    kills: dict[str, list[HostAction]] = {}
    for action in game.record.host_actions:
        if action.kind == HOST_KILL:
            kills.setdefault(action.phase, []).append(action)
    steps: list[Step] = []
    phases = list(game.record.resolved)
    # the open phase, or the phase in which a host kill ended the game
    for phase_id in [*([game.phase.id] if game.phase else []), *kills]:
        if phase_id not in phases:
            phases.append(phase_id)
    for phase_id in phases:
        steps.extend(
            Step(HOST_KILL, phase_id, player=a.player, reason=a.reason)
            for a in kills.get(phase_id, [])
        )
        if phase_id in game.record.resolved:
            latest = game.latest_orders(phase_id)
            steps.append(Step(RESOLVE, phase_id, {p: row.lines for p, row in latest.items()}))
    return steps


def replay_game(moderator: Moderator, game_id: str) -> ReplayReport:
    """Re-run the game from seed and order log; compare with the stored checkpoints (a
    digest after each step, see `with_checkpoint`) and the stored current state."""
    game = load(moderator, game_id)
    record = game.record
    # A game stored before rules versions existed started under the first.
    started_under, runs = record.rules_version or 1, game.rules.card.rules_version
    steps = replay_steps(game)
    try:
        checkpoints = replay(game.rules, record.player_specs, record.seed, record.options, steps)
    except ReplayError as error:
        return ReplayReport(len(steps), None, str(error), started_under=started_under, runs=runs)
    digests = [Checkpoint(c.label, state_digest(c.state)) for c in checkpoints]
    stored = [Checkpoint(c.label, c.digest) for c in record.checkpoints]
    divergence = compare(stored, digests)
    final = compare(
        [Checkpoint("the current state", record.state)],
        [Checkpoint("the current state", checkpoints[-1].state)],
    )
    if divergence is not None:
        return ReplayReport(
            len(steps),
            Divergence(divergence.label, "", None, _first_field(final)),
            started_under=started_under,
            runs=runs,
        )
    return ReplayReport(len(steps), final, started_under=started_under, runs=runs)


def _first_field(final: Divergence | None) -> str:
    """What names the first differing field, after a step whose stored state is kept only
    as a digest: the first field where the current states differ."""
    if final is None:
        return (
            "the stored game's state differs from the replay's there (only its digest is kept), and"
            " the current states agree."
        )
    return (
        "the stored game's state differs from the replay's there (only its digest is kept); in the"
        f" current state, at {final.path} the stored game has {_short(final.stored)} but the replay"
        f" gives {_short(final.replayed)}."
    )
