"""The host changes a running game's moderator options (`pbp options`; docs/design.md:
Command line), in one durable write with the host action's log entry."""

from __future__ import annotations

from dataclasses import replace

from pbp.errors import UserError
from pbp.game.deadlines import start_clock
from pbp.game.notifying.notices import log_host_action
from pbp.game.record_parts import HostAction
from pbp.game.options import OPTIONS, split_options
from pbp.game.option_values import OptionValueError
from pbp.game.stored import load, save
from pbp.moderator import Moderator


def change_options(moderator: Moderator, game_id: str, given: dict[str, str]) -> dict[str, str]:
    """Change a running game's moderator options (`reminders`, `resolve_when_all_in`,
    `wait_for_publish`; pbp.game.options), e.g. switch its reminders off; returns them
    all. The ruleset's options shaped the game when it began and stay as they are."""
    game = load(moderator, game_id)
    current = dict(game.record.moderator_options)
    unknown = sorted(key for key in given if key.strip().lower() not in OPTIONS)
    if unknown:
        raise UserError.of(
            "%(option)s cannot change in a running game; the options that can are %(options)s.",
            option=repr(unknown[0]),
            options=", ".join(sorted(OPTIONS)),
        )
    try:
        changed, _ = split_options({**current, **given}, game.rules.card)
    except OptionValueError as error:
        raise UserError(error.wording) from None
    if given:
        with game.file.transaction():
            save(game, replace(game.record, moderator_options=changed))
            log_host_action(
                game,
                HostAction(
                    "options",
                    game.filed_phase,
                    options={k.strip().lower(): v for k, v in given.items()},
                ),
                moderator,
            )
            start_clock(moderator, game_id)  # wait_for_publish=off starts a waiting clock
    return changed
