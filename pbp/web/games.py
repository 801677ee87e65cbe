"""The games page: every game with its phase, deadline (in the host's zone and UTC), orders
in and awaited, drafts waiting, messages to the host, its mail problems, and the daemon's
state — what `pbp status` says (docs/design.md: The host's desk in the browser)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, render_template, request
from markupsafe import Markup

from pbp.host.status_report import status_report
from pbp.schedule import now
from pbp.web.app import settings_here
from pbp.web.host_words import in_host_language
from pbp.web.folders import reader
from pbp.web.game_list import every_game, folder_version

pages = Blueprint("games", __name__)
# Games on one page of the list: a host with a thousand games pages through them, and the
# page costs the same however many there are (benchmarks/web.py).
PAGE_SIZE = 25


@pages.get("/")
def games() -> Any:
    with reader(settings_here()) as moderator:
        folder = moderator.folder
        moment = now()
        parts, troubled = every_game(folder, moment, moderator.rules)
        pages_count = max(1, -(-len(parts) // PAGE_SIZE))
        page = min(max(request.args.get("page", 1, type=int) or 1, 1), pages_count)
        report = status_report(folder, moment, games=troubled)  # the problems of every game
        version = folder_version(folder)
    report["problems"] = [in_host_language(problem) for problem in report["problems"]]
    report["games"] = parts[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    for part in report["games"]:
        if "row" not in part:  # kept with the part, so made again only when the game changes
            waits = part["resolution_waits"]  # why, a Wording worded in the host's language
            why = in_host_language(waits["why"]) if waits else None
            part["row"] = Markup(render_template("games_row.html", game=part, why=why))
    return render_template(
        "games.html", report=report, page=page, pages_count=pages_count, version=version
    )


@pages.get("/version")
def version() -> Any:
    """What the games page polls (static/desk.js): it changes when any game changes."""
    with reader(settings_here()) as moderator:
        return jsonify(version=folder_version(moderator.folder))
