"""The games page: every game with its phase, deadline (in the host's zone and UTC), orders
in and awaited, drafts waiting, messages to the host, its mail problems, and the daemon's
state — what `pbp status` says (docs/design.md: The host's desk in the browser)."""
from __future__ import annotations

from functools import partial
from typing import Any

from flask import Blueprint, jsonify, render_template, request

from pbp.host.status_report import status_report
from pbp.schedule import now
from pbp.web.app import settings_here
from pbp.web.folders import reader
from pbp.web.game_list import folder_version, game_part

pages = Blueprint("games", __name__)
# Games on one page of the list: a host with a thousand games pages through them, and the
# page costs the same however many there are (benchmarks/web.py).
PAGE_SIZE = 50


@pages.get("/")
def games() -> Any:
    with reader(settings_here()) as moderator:
        folder = moderator.folder
        ids = folder.game_ids()
        pages_count = max(1, -(-len(ids) // PAGE_SIZE))
        page = min(max(request.args.get("page", 1, type=int) or 1, 1), pages_count)
        report = status_report(folder, now(), game_of=partial(_listed_part, rules_for=moderator.rules,
                                                               shown=set(ids[(page - 1) * PAGE_SIZE:
                                                                             page * PAGE_SIZE])))
        version = folder_version(folder.path, ids)
    report["games"] = [game for game in report["games"] if game.get("shown")]
    return render_template("games.html", report=report, page=page, pages_count=pages_count, version=version)


def _listed_part(folder: Any, game_id: str, stall: Any, moment: Any, *, rules_for: Any, shown: set[str]) -> Any:
    part = dict(game_part(folder, game_id, stall, moment, rules_for))
    part["shown"] = game_id in shown
    return part


@pages.get("/version")
def version() -> Any:
    """What the games page polls (static/desk.js): it changes when any game changes."""
    with reader(settings_here()) as moderator:
        return jsonify(version=folder_version(moderator.folder.path, moderator.folder.game_ids()))
