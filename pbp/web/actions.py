"""The host actions page of a game, `/games/<game>/actions`: extend the deadline, pause and
resume it with a reason, substitute a player (from the substitutes' list or a newcomer),
modkill a character with a public reason, and change the moderator options. Each form
posts to its own endpoint, which runs the operation of its command (pbp.host.actions)
through `run_action` (docs/design.md: The host's desk in the browser — actions)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, request, url_for

from engine.errors import Wording
from pbp.errors import UserError
from pbp.game.options import OPTIONS
from pbp.host.actions import (
    extend_deadline,
    modkill_character,
    pause_game,
    resume_game,
    set_options,
    substitute_player,
)
from pbp.host.options_change import change_options
from pbp.moderator import Moderator
from pbp.web.action_facts import actions_facts
from pbp.web.acting import field, run_action
from pbp.web.host_words import Said, in_host_language, refusal
from pbp.web.app import settings_here
from pbp.web.folders import reader

pages = Blueprint("actions", __name__)


@pages.get("/games/<game_id>/actions")
def page(game_id: str) -> Any:
    try:
        with reader(settings_here()) as moderator:
            game = actions_facts(moderator, game_id)
    except UserError as error:
        return render_template("action_missing.html", sentence=refusal(error)), 404
    game["clock"] = in_host_language(game["clock"])
    for option in game["options"]:  # the help in the host's language (catalog `refusals`)
        option["help"] = in_host_language(Wording(option["help"]))
    return render_template("actions.html", game=game, queued=game["queued"])


def _back(game_id: str) -> str:
    return url_for("actions.page", game_id=game_id)


@pages.post("/games/<game_id>/actions/extend")
def extend(game_id: str) -> Any:
    when, reason = field(request.form, "when"), field(request.form, "reason")
    return run_action(
        lambda moderator: extend_deadline(moderator, game_id, when, reason), _back(game_id)
    )


@pages.post("/games/<game_id>/actions/pause")
def pause(game_id: str) -> Any:
    reason = field(request.form, "reason")
    return run_action(lambda moderator: pause_game(moderator, game_id, reason), _back(game_id))


@pages.post("/games/<game_id>/actions/resume")
def resume(game_id: str) -> Any:
    reason = field(request.form, "reason")
    return run_action(lambda moderator: resume_game(moderator, game_id, reason), _back(game_id))


@pages.post("/games/<game_id>/actions/substitute")
def substitute(game_id: str) -> Any:
    form = request.form
    old, from_list = field(form, "old"), field(form, "source") == "list"
    name, email = field(form, "name"), field(form, "email")

    def operation(moderator: Moderator) -> list[Wording]:
        if not from_list and not (name and email):
            raise UserError.of(
                "Give the newcomer's name and mail address, or take the first on the "
                "substitutes' list."
            )
        return substitute_player(
            moderator,
            game_id,
            old,
            name or None,
            email or None,
            field(form, "timezone") or None,
            field(form, "forum_name") or None,
            from_list=from_list,
        )

    return run_action(operation, _back(game_id))


@pages.post("/games/<game_id>/actions/modkill")
def modkill(game_id: str) -> Any:
    player, reason = field(request.form, "player"), field(request.form, "reason")

    def operation(moderator: Moderator) -> list[Said]:
        if not reason:
            raise UserError.of(
                "Give the reason for the modkill: it is announced to everyone with the kill."
            )
        return modkill_character(moderator, game_id, player, reason)

    return run_action(operation, _back(game_id))


@pages.post("/games/<game_id>/actions/options")
def options(game_id: str) -> Any:
    given = {name: field(request.form, name) for name in OPTIONS if name in request.form}

    def operation(moderator: Moderator) -> Said:
        current = change_options(moderator, game_id, {})  # only what the host changed is logged
        changed = {
            name: value for name, value in given.items() if value != str(current.get(name, ""))
        }
        return set_options(moderator, game_id, changed)[0]

    return run_action(operation, _back(game_id))
