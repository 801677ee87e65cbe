"""The thread post that announces a game open for sign-ups (templates/signups/announcement.j2)."""
from __future__ import annotations

from pbp import schedule
from pbp.game.options import SPECTATORS, VOTES, split_options
from pbp.moderator import Moderator
from pbp.storage.open_games import OpenGame
from pbp.timezones import render_moment, render_remaining

TEMPLATE = "signups/announcement.j2"


def announcement(moderator: Moderator, signups: OpenGame) -> str:
    record = signups.record
    card = moderator.rules(record.ruleset).card
    moderator_options, _ = split_options(record.options, card)
    phases = "; ".join(f"{kind.label}: {render_remaining(schedule.phase_duration(record.schedule, kind.kind))}"
                       for kind in card.phase_kinds)
    return moderator.renderer.env.get_template(TEMPLATE).render(
        game=record.to_json(), closes=render_moment(record.closes), address=moderator.settings.from_address,
        spectators=moderator_options[SPECTATORS], votes=moderator_options[VOTES], phases=phases).strip() + "\n"
