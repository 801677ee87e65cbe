"""What the welcome mail tells a player besides their view and form:
their role, class choice or team in plain words (worded in templates/help/roles.j2 from
the rules files), the teammates the rules let them know (Reds know Reds; wolves know
wolves; Masons know Masons; lovers know each other), and the schedule in their time zone.

Only the player's own status (engine.core.PlayerStatus) is read, so the welcome cannot say
more than the engine lets that player know, and knows no ruleset's view keys.
"""
from __future__ import annotations

from typing import Any

from engine.core import PlayerStatus, RulesetCard
from pbp.schedule import phase_duration
from pbp.timezones import render_duration_spec, render_moment

def welcome_facts(game: Any, name: str) -> dict:
    """The `about` facts for templates/mail/welcome.j2, from `name`'s own status."""
    record = game.record
    status = game.rules.status(game.state, name)
    zone = next((e.get("timezone", "") for e in record["roster"] if e["name"] == name), "")
    return {"about": {
        "ruleset": record["ruleset"],
        "team": status.team,
        "role": status.role,
        # A player chooses when the choosing phase offers them more than one choice (Reds
        # are Warriors without a choice).
        "choosing_class": bool(game.phase) and game.phase.kind == game.rules.card.choosing_kind
        and any(len(spec.choices) > 1 for spec in game.phase.grammar.get(name, ())),
        "teammates": teammates(status, {npc["name"] for npc in record.get("npcs", [])}),
        "schedule": schedule_lines(record, game.rules.card),
        "deadline": render_moment(record["deadline"], zone) if record.get("deadline") else "",
        "zone": zone or "UTC",
    }}


def teammates(status: PlayerStatus, npcs: set[str]) -> list[dict]:
    """[{"team": label, "names": [...]}] for every group the player knows by the rules, in
    the status's order; a host-run character among them is marked as an NPC."""
    return [{"team": team, "names": [f"{member} (an NPC)" if member in npcs else member for member in members]}
            for team, members in status.teammates.items()]


def schedule_lines(record: dict, card: RulesetCard) -> list[str]:
    """`each movement phase: 1d` lines for the phase kinds of this ruleset (from its card)."""
    plan = record["schedule"]
    return [f"{kind.label}: {render_duration_spec(phase_duration(plan, kind.kind))}" for kind in card.phase_kinds]
