"""Resolving a game's open phase: at its deadline, early when every order is in (option
`resolve_when_all_in`), or when the host advances it (docs/design.md: Reliability rules,
Deadlines).

A resolution is one durable write holding the new state, the resolved phase's id, the next
deadline and every report queued in the outbox, together with whatever the moderator's
listeners of `after_resolution` write (the forum drafts its public post). It only runs when
the game's open phase is still the one asked for, so a restart after a crash never resolves
a phase twice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from engine.core import Phase, Resolution, Result
from pbp import schedule
from pbp.timezones import to_text
from pbp.crashpoints import crash_point
from pbp.game.clock import Running, clock_of, waiting_marker
from pbp.game.deadlines import clock_waits
from pbp.game.options import awaits_nobody, may_resolve_early, spectators_mode
from pbp.game.stored import StoredGame, load, record_of, rewritten, save
from pbp.game.notifying.recipients import report_recipients
from pbp.game.stalls import note_stall, stalled_phases
from pbp.game.checkpoints import with_checkpoint
from pbp.moderator import Moderator
from pbp.ports import RenderedMail
from pbp.render.renderer import event_json
from pbp.game.standing_orders import standing_orders

NPC_REPORT = "npc-report"  # the outbox kind of an NPC's report, mailed to the host


def for_host(mail: RenderedMail, npc: str) -> RenderedMail:
    """An NPC's mail as the host receives it: the subject names the NPC (the host plays
    several characters from one mailbox)."""
    return replace(mail, subject=f"{mail.subject} (NPC {npc})")


@dataclass(frozen=True)
class ResolutionSummary:
    game: str
    phase: str
    public: tuple[str, ...]
    result: Result | None
    next_phase: str
    awaited_nobody: bool = False  # resolved at once: nobody had an order to give (`awaits_nobody`)

    def resolved_early(self, *, with_game: bool = True) -> str:
        """The sentence telling the host why the phase resolved before its deadline: every
        order was in (option resolve_when_all_in), or nobody had an order to give."""
        after = f"next phase: {self.next_phase}" if self.next_phase else "the game is over"
        phase = f"{self.game} {self.phase}" if with_game else self.phase
        if self.awaited_nobody:
            return f"Nobody has an order to give in {phase}, so it is resolved at once; {after}."
        return f"Every order is in (option resolve_when_all_in): {phase} is resolved; {after}."


@dataclass(frozen=True)
class Resolved:
    """A resolution as the moderator's `after_resolution` listeners get it, inside its
    transaction (what they write is part of the same durable write): the game `before` and
    `after`, the `phase` resolved with the typed `orders` it was resolved with, the engine's
    `resolution` and its public events as JSON (`public`)."""

    before: StoredGame
    after: StoredGame
    phase: Phase
    orders: Mapping[str, tuple[Any, ...]]
    resolution: Resolution
    public: list[dict[str, Any]]

    @property
    def result(self) -> Result | None:
        return self.after.rules.result(self.after.state)


def report_mail(
    moderator: Moderator,
    after: StoredGame,
    name: str,
    form: dict[str, Any] | None,
    phase_id: str,
    public: list[dict[str, Any]],
    resolution: Resolution,
    during: bool = False,
) -> RenderedMail:
    """`name`'s report of what `resolution` did in `phase_id`, read from the game `after`
    it: the public events, their own private ones, where they stand and the next form.
    `during`: the phase goes on (a host kill), so the report does not say it is over."""
    result = after.rules.result(after.state)
    return after.renderer_of(moderator, name).render(
        "report",
        after.record.ruleset,
        game=after.game_facts(),
        player=name,
        resolved_phase=phase_id,
        next_phase=after.phase.id if after.phase else "",
        public_events=public,
        private_events=[event_json(e) for e in resolution.private.get(name, ())],
        result=result,
        during=during,
        view=after.view(name),
        form=form,
        dead_watch=spectators_mode(after.record.moderator_options, after.rules.card)
        in ("dead", "all"),
    )


def resolve_phase(
    moderator: Moderator, game_id: str, phase_id: str | None = None
) -> ResolutionSummary | None:
    """Resolve the open phase (only if it is still `phase_id`, when given) with the orders
    in; queue a report to every player; open the next phase with its deadline.
    Returns None when there was nothing to resolve (game over, or already resolved)."""
    game = load(moderator, game_id)
    if game.phase is None or (phase_id is not None and game.phase.id != phase_id):
        return None
    phase = game.phase
    rules = game.rules
    dead_before = game.dead()
    blocks = {player: row.lines for player, row in game.latest_orders(phase.id).items()}
    orders = standing_orders(rules, game.state, phase, blocks)
    resolution = rules.resolve(game.state, orders)
    new_state = resolution.state
    next_phase = rules.phase(new_state)
    result = rules.result(new_state)
    now = moderator.clock()
    plan = game.record.schedule
    deadline = schedule.deadline_after(now, plan, next_phase.kind) if next_phase else None
    public = [event_json(e) for e in resolution.public]
    # Option wait_for_publish: the next phase opens now, its clock when this post is published.
    waits = clock_waits(game.record.moderator_options, next_phase, public)
    state_json = rules.to_json(new_state)
    with game.file.transaction():
        save(
            game,
            replace(
                game.record,
                state=state_json,
                phase_id=next_phase.id if next_phase else "",
                opened=to_text(now),
                deadline=to_text(deadline) if deadline and not waits else "",
                clock_waits_for=(
                    waiting_marker(phase.id, next_phase.id) if waits and next_phase else None
                ),
                resolved=(*game.record.resolved, phase.id),
                checkpoints=with_checkpoint(
                    game.record.checkpoints, f"resolution of {phase.id}", state_json
                ),
                result=result,
            ),
        )
        after = rewritten(game, new_state, next_phase)

        def report(name: str, form: dict[str, Any] | None) -> RenderedMail:
            return report_mail(moderator, after, name, form, phase.id, public, resolution)

        # The dead get no reports after the one that told them of their death, and a
        # player the resolution tells nothing and asks nothing gets none
        # (pbp.game.notifying.recipients).
        told = set(
            report_recipients(
                [name for name in game.record.characters if name not in dead_before],
                public,
                resolution.private,
                next_phase,
            )
        )
        for player in game.roster:
            name = player.name
            if name in told:
                moderator.outbox.queue(
                    game.file,
                    phase=phase.id,
                    recipient=name,
                    address=player.email,
                    kind="report",
                    mail=report(name, after.form(name)),
                )
        # The host plays the NPCs: each NPC's report and form go to the host address, as a
        # player's go to that player (the host answers by mail with the form's block, or
        # with `pbp submit`); the row names the NPC, so `pbp show` finds its reports.
        host_address = moderator.settings.host_address
        for name in game.record.npc_names:
            if host_address and name in told:
                moderator.outbox.queue(
                    game.file,
                    phase=phase.id,
                    recipient=name,
                    address=host_address,
                    kind=NPC_REPORT,
                    mail=for_host(report(name, after.npc_form(name)), name),
                )
        resolved = Resolved(game, after, phase, orders, resolution, public)
        for (
            listener
        ) in moderator.after_resolution:  # spectators' mail; the forum drafts the public post
            listener(moderator, resolved)
        crash_point("mid-resolution")
    described = tuple(
        moderator.renderer.describe(game.record.ruleset, e) for e in resolution.public
    )
    return ResolutionSummary(
        game_id, phase.id, described, result, next_phase.id if next_phase else ""
    )


def due_games(moderator: Moderator) -> list[tuple[str, str]]:
    """(game, phase) pairs whose deadline has passed, earliest first; a phase whose
    resolution failed before (pbp.game.stalls) waits for the host."""
    now = moderator.clock()
    stalled = stalled_phases(moderator.folder)
    due = []
    moment = now.timestamp()
    for game_id in moderator.folder.index.games(
        moderator.folder.game_ids(),
        now=moment,
        due=lambda entry: entry.deadline is not None and entry.deadline <= moment,
    ):
        try:
            record = record_of(moderator.folder.game(game_id))
        except Exception:  # an unreadable game file is shown by pbp status; the others go on
            continue
        if clock_of(record).due(now) and stalled.get(record.id) != record.phase_id:
            due.append((record.deadline, record.id, record.phase_id))
    return [(game, phase) for _, game, phase in sorted(due)]


# Asked of a due game before it resolves: None when it may, else why it waits (a game whose
# votes come from its thread reads the thread one last time: pbp.game.final_read).
ResolutionGate = Callable[[Moderator, str], "str | None"]


def resolve_due(
    moderator: Moderator, gate: ResolutionGate | None = None
) -> list[ResolutionSummary]:
    """Resolve every overdue phase exactly once (a game that fell far behind resolves one
    phase per call: its next phase gets a fresh deadline from now). A game whose resolution
    fails is noted as stalled and skipped; the other games are resolved all the same. A
    game the `gate` holds back is tried again when its index entry next falls due."""
    summaries = []
    for game_id, phase_id in due_games(moderator):
        try:
            if gate is not None and gate(moderator, game_id) is not None:
                continue
            summary = resolve_phase(moderator, game_id, phase_id)
        except (
            Exception
        ) as error:  # one bad game never stops the others (docs/design.md: Hostile input)
            note_stall(
                moderator.folder,
                game_id,
                phase_id,
                f"{type(error).__name__}: {error}",
                moderator.clock(),
            )
            continue
        if summary:
            summaries.append(summary)
    return summaries


def resolve_if_all_in(moderator: Moderator, game_id: str) -> ResolutionSummary | None:
    """Resolve the open phase now when the game's option `resolve_when_all_in` is on and
    every actor has orders in (never for secret actors), or when the phase awaits nobody
    and that is no secret (`awaits_nobody`); None when it does not apply."""
    game = load(moderator, game_id)
    if game.phase is None or not isinstance(game.clock, Running):
        # paused, or a clock that waits for a public post has not started (wait_for_publish)
        return None
    options = game.record.moderator_options
    awaited_nobody = awaits_nobody(game.phase)
    if not awaited_nobody and not may_resolve_early(
        options, game.phase, game.latest_orders(game.phase.id)
    ):
        return None
    summary = resolve_phase(moderator, game_id, game.phase.id)
    return replace(summary, awaited_nobody=True) if summary and awaited_nobody else summary


def resolve_all_in(moderator: Moderator) -> list[ResolutionSummary]:
    """Early resolution for every game (called once per poll cycle): only a change to a
    game (an order, an option) can make its orders all in, so the index names the games."""
    summaries = []
    for game_id in moderator.folder.index.games(moderator.folder.game_ids()):
        summary = resolve_if_all_in(moderator, game_id)
        if summary:
            summaries.append(summary)
    return summaries
