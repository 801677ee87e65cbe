"""Starting a game open for sign-ups from the desk, `/open/<game>/start`: the page lists
who signed up (those dealt in, then the substitutes' list) and its button runs what `pbp
start` runs (docs/design.md: The host's desk in the browser — actions)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template, url_for

from pbp.host.actions import start_open_game
from pbp.signups.signup_status import signup_lines
from pbp.storage.open_games import find_open_game
from pbp.web.acting import run_action
from pbp.web.app import settings_here
from pbp.web.folders import reader
from pbp.web.host_words import said

pages = Blueprint("starting", __name__)


@pages.get("/open/<game_id>/start")
def page(game_id: str) -> Any:
    with reader(settings_here()) as moderator:
        signups = find_open_game(moderator.folder, game_id)
        if signups is None:
            return (
                render_template(
                    "action_missing.html",
                    sentence=said(
                        "There is no game %(game)s open for sign-ups; the games page lists"
                        " those that are.",
                        game=repr(game_id),
                    ),
                ),
                404,
            )
        lines = signup_lines(moderator.folder, signups.id)  # what `pbp status <game>` says of them
    return render_template("start.html", game_id=signups.id, lines=lines)


@pages.post("/open/<game_id>/start")
def start(game_id: str) -> Any:
    return run_action(
        lambda moderator: start_open_game(moderator, game_id),
        url_for("starting.page", game_id=game_id),
        url_for("actions.page", game_id=game_id),
    )
