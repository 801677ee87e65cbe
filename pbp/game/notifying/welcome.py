"""What the welcome mail tells a player besides their view and form:
their role, class choice or team in plain words (worded in templates/help/roles.j2 from
the rules files), the teammates the rules let them know (Reds know Reds; wolves know
wolves; Masons know Masons; lovers know each other), and the schedule in their time zone.

Only the player's own status (engine.core.PlayerStatus) is read, so the welcome cannot say
more than the engine lets that player know, and knows no ruleset's view keys.
"""

from __future__ import annotations

from typing import Any, Mapping

from engine.core import PlayerStatus, RulesetCard
from pbp.game.options import stated_options
from pbp.game.stored import StoredGame
from pbp.schedule import phase_duration
from pbp.render.moments import render_moment
from pbp.timezones import render_duration_spec


def welcome_facts(game: StoredGame, name: str) -> dict[str, Any]:
    """The `about` facts for templates/mail/welcome.j2, from `name`'s own status."""
    record = game.record
    status = game.rules.status(game.state, name)
    zone = record.roster.zone_of(name)
    phase = game.phase
    return {
        "about": {
            "ruleset": record.ruleset,
            "team": status.team,
            "role": status.role,
            # A player chooses when the choosing phase offers them more than one choice (Reds
            # are Warriors without a choice).
            "choosing_class": (
                phase is not None
                and phase.kind == game.rules.card.choosing_kind
                and any(len(spec.choices) > 1 for spec in phase.grammar.get(name, ()))
            ),
            "teammates": teammates(status, set(record.npc_names)),
            "schedule": schedule_lines(record.schedule, game.rules.card),
            "deadline": (
                render_moment(record.deadline, zone, record.roster.language_of(name))
                if record.deadline
                else ""
            ),
            "zone": zone or "UTC",
            "options": stated_options(game.rules, game.state, record.moderator_options),
        }
    }


def teammates(status: PlayerStatus, npcs: set[str]) -> list[dict[str, Any]]:
    """[{"team": label, "names": [...]}] for every group the player knows by the rules, in
    the status's order; a host-run character among them is marked as an NPC."""
    return [
        {
            "team": team,
            "names": [f"{member} (an NPC)" if member in npcs else member for member in members],
        }
        for team, members in status.teammates.items()
    ]


def schedule_lines(plan: Mapping[str, str], card: RulesetCard) -> list[dict[str, str]]:
    """`{"label": "each movement phase", "length": "1d"}` for the phase kinds of this ruleset
    (from its card); the template words the label in its reader's language."""
    return [
        {"label": kind.label, "length": render_duration_spec(phase_duration(plan, kind.kind))}
        for kind in card.phase_kinds
    ]
