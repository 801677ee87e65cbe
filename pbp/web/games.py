"""The games page: every game with its phase, deadline (in the host's zone and UTC), its
mail problems and the daemon's state — what `pbp status` says (docs/design.md: The host's
desk in the browser)."""
from __future__ import annotations

from typing import Any

from flask import Blueprint, render_template

from pbp.host.status_report import status_report
from pbp.schedule import now
from pbp.web.app import settings_here
from pbp.web.folders import reader

pages = Blueprint("games", __name__)


@pages.get("/")
def games() -> Any:
    with reader(settings_here()) as moderator:
        report = status_report(moderator.folder, now())
    return render_template("games.html", report=report)
