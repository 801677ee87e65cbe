"""Entering a character's orders on the desk, `/games/<game>/orders/<character>`: the page
shows the order form the mail gives that character and takes the text back through the
parser of `pbp submit` (and of players' mail); the receipt, or the refusal's lines with
the text kept for fixing (docs/design.md: The host's desk in the browser — actions)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for

from pbp.errors import UserError
from pbp.host.actions import host_order_form, submit_orders
from pbp.host.orders import OrdersRefused, character_status
from pbp.web.acting import DONE, queued_line
from pbp.web.app import settings_here
from pbp.web.folders import Waited, reader, writer
from pbp.web.host_words import answer_lines, in_host_language, problem_lines
from pbp.web.host_words import refusal as refusal_of

pages = Blueprint("orders_form", __name__)


@pages.get("/games/<game_id>/orders/<character>")
def page(game_id: str, character: str) -> Any:
    return _shown(game_id, character, text=None)


@pages.post("/games/<game_id>/orders/<character>")
def enter(game_id: str, character: str) -> Any:
    text = str(request.form.get("orders", ""))
    waited = Waited()
    try:
        with writer(settings_here(), waited) as moderator:
            receipt = answer_lines(list(submit_orders(moderator, game_id, character, text)))
            queued = moderator.outbox.pending()
    except OrdersRefused as error:  # the head, then each problem, in the host's language
        head, problems = in_host_language(error.head), problem_lines(error.verdict)
        return _shown(game_id, character, text=text, refusal=head, problems=problems, status=422)
    except UserError as error:
        return _shown(game_id, character, text=text, refusal=refusal_of(error), status=422)
    for line in receipt:
        flash(line, DONE)
    flash(queued_line(queued), DONE)
    if waited.note:
        flash(waited.note, "waited")
    return redirect(url_for("orders_form.page", game_id=game_id, character=character))


def _shown(
    game_id: str,
    character: str,
    *,
    text: str | None,
    refusal: str = "",
    problems: list[str] | None = None,
    status: int = 200,
) -> Any:
    """The character's order form (with `refusal`, its `problems` and the host's `text`
    when refused), answered with `status`; an unknown game or character is a 404."""
    try:
        with reader(settings_here()) as moderator:
            form = host_order_form(moderator, game_id, character)
            standing = character_status(moderator, game_id, character)
    except UserError as error:
        return render_template("action_missing.html", sentence=refusal_of(error)), 404
    return (
        render_template(
            "orders_form.html",
            game_id=game_id,
            character=character,
            form=form,
            status=standing,
            text=form if text is None else text,
            refusal=refusal,
            problems=problems or [],
        ),
        status,
    )
