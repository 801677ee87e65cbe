"""The host removes a character at once (`pbp modkill`; docs/design.md: Command line).

The removal changes the game file in one durable write together with the mails it causes
(queued in the outbox, sent by the caller or the daemon), like every other change pbp
makes. The engine state changes only through the engine (`host_kill`), so `pbp replay` can
re-run everything from the order log.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import Phase, Resolution, Result

from pbp import schedule
from pbp.timezones import to_text
from pbp.render.verdicts import Note
from pbp.errors import UserError
from pbp.game.notifying.notices import log_host_action, notify_players
from pbp.game.record_parts import HostAction
from pbp.game.resolution import NPC_REPORT, for_host, report_mail
from pbp.game.record import GameRecord
from pbp.game.stored import StoredGame, load, running, save
from pbp.game.checkpoints import with_checkpoint
from pbp.host.replay import HOST_KILL, Step
from pbp.moderator import Moderator
from pbp.render.renderer import event_json


def modkill(moderator: Moderator, game_id: str, player: str, reason: str) -> list[str]:
    """The host removes a character at once (rules: a host kill takes effect at once, is
    announced with the host's reason, and is followed by a victory check). Whoever died of
    it gets the ruleset's own last report, as a death at a deadline would give; every other
    player a notice with the public events; if the game ends, the result goes out too."""
    if not reason.strip():
        raise UserError("Give a reason; it is announced with the kill.")
    game = running(moderator, game_id)
    name = game.character(player)
    resolution = game.rules.host_kill(game.state, name, reason.strip())
    new_state = resolution.state
    next_phase = game.rules.phase(new_state)
    result = game.rules.result(new_state)
    public = [event_json(e) for e in resolution.public]
    phase = game.open_phase
    label = Step(HOST_KILL, phase.id, player=name).describe()
    record = _record_after(moderator, game, label, new_state, next_phase, result)
    with game.file.transaction():
        save(game, record)
        log_host_action(
            game, HostAction(HOST_KILL, phase.id, player=name, reason=reason.strip()), moderator
        )
        after = load(moderator, game_id)
        # Who died of it (a lover by day too) is told as the rules tell a death: their
        # own report, private news included; everyone else gets the notice.
        died = after.dead() - game.dead()
        _report_the_dead(moderator, after, died, phase.id, public, resolution)
        living = {player.name for player in after.roster} - died
        notify_players(
            moderator,
            after,
            "notice",
            Note(
                "removed",
                name=name,
                reason=reason,
                over=result is not None,
                ruleset=game.record.ruleset,
                winners=tuple(result.winners) if result else (),
            ),
            public_events=public,
            only=living,
        )
        for listener in moderator.after_host_action:  # the forum drafts the public post
            listener(moderator, game, after, public)
    return [moderator.renderer.describe(game.record.ruleset, e) for e in resolution.public]


def _record_after(
    moderator: Moderator,
    game: StoredGame,
    label: str,
    new_state: Any,
    next_phase: Phase | None,
    result: Result | None,
) -> GameRecord:
    """The game's record with the state after the kill (and its checkpoint), and a new
    phase opened now when the kill ended the open one."""
    phase = game.open_phase
    state_json = game.rules.to_json(new_state)
    record = replace(
        game.record,
        state=state_json,
        result=result,
        checkpoints=with_checkpoint(game.record.checkpoints, label, state_json),
    )
    if next_phase is None or next_phase.id != phase.id:
        now = moderator.clock()
        record = replace(
            record,
            phase_id=next_phase.id if next_phase else "",
            opened=to_text(now),
            deadline=(
                to_text(schedule.deadline_after(now, record.schedule, next_phase.kind))
                if next_phase
                else ""
            ),
        )
    return record


def _report_the_dead(
    moderator: Moderator,
    after: StoredGame,
    died: set[str],
    phase_id: str,
    public: list[dict[str, Any]],
    resolution: Resolution,
) -> None:
    """Queue the ruleset's last report to each player who died of the kill, and to the host
    for each NPC who did (call inside the game's transaction)."""
    for member in after.roster:
        if member.name in died:
            moderator.outbox.queue(
                after.file,
                phase=phase_id,
                recipient=member.name,
                address=member.email,
                kind="report",
                mail=report_mail(
                    moderator, after, member.name, None, phase_id, public, resolution, during=True
                ),
            )
    host_address = moderator.settings.host_address
    for npc in after.record.npc_names:
        if host_address and npc in died:
            mail = report_mail(
                moderator, after, npc, None, phase_id, public, resolution, during=True
            )
            moderator.outbox.queue(
                after.file,
                phase=phase_id,
                recipient=npc,
                address=host_address,
                kind=NPC_REPORT,
                mail=for_host(mail, npc),
            )
