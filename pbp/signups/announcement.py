"""The thread post that announces a game open for sign-ups (templates/signups/announcement.j2),
in the thread's language (the game option `language`; docs/design.md: Each reader's
language)."""

from __future__ import annotations

from pbp import schedule
from pbp.game.options import SPECTATORS, VOTES, split_options, thread_language
from pbp.moderator import Moderator
from pbp.render.moments import render_moment, render_remaining
from pbp.storage.open_games import OpenGame

TEMPLATE = "signups/announcement.j2"


def announcement(moderator: Moderator, signups: OpenGame) -> str:
    record = signups.record
    card = moderator.rules(record.ruleset).card
    moderator_options, _ = split_options(record.options, card)
    language = thread_language(moderator_options)
    environment = moderator.renderer_for(language).env
    label = environment.filters["phase_label"]  # the schedule slot in the thread's language
    phases = "; ".join(
        f"{label(kind.label)}: "
        f"{render_remaining(schedule.phase_duration(record.schedule, kind.kind), language)}"
        for kind in card.phase_kinds
    )
    return (
        environment.get_template(TEMPLATE)
        .render(
            game=record.to_json(),
            closes=render_moment(record.closes, "", language),
            address=moderator.settings.from_address,
            spectators=moderator_options[SPECTATORS],
            votes=moderator_options[VOTES],
            phases=phases,
        )
        .strip()
        + "\n"
    )
