"""A game's page `/games/<game>`: its roster, the open phase's orders, the running count,
the Infiltration map, the team channels, the players' messages to the host with a reply
box, the host's log (docs/design.md: The host's desk in the browser — a game's page).

The map is served from a route of its own as `image/svg+xml` and shown with `<img>`: a
picture shown that way never runs script, and the page's content security policy holds.
The reply goes through `pbp reply`'s function (pbp.conversations.host_side.reply_command)."""

from __future__ import annotations

from functools import partial
from typing import Any, NoReturn

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from engine.core import RulesetCard
from pbp.errors import UserError
from pbp.game.stored import load
from pbp.render.card_texts import card_text
from pbp.render.languages import translations
from pbp.conversations.host_side import reply_command
from pbp.web import game_facts
from pbp.web.app import settings_here
from pbp.web.folders import Waited, reader, writer
from pbp.web.game_list import game_version
from pbp.web.host_words import in_host_language, refusal, said

pages = Blueprint("game", __name__)


def _known(moderator: Any, game_id: str) -> None:
    if game_id not in moderator.folder.game_ids():
        _refuse(
            said(
                "There is no game called %(game)s; the games page lists every game.",
                game=repr(game_id),
            ),
            404,
        )


def _refuse(sentence: str, status: int) -> NoReturn:
    """End the request with a page of one sentence."""
    abort(Response(render_template("problem.html", sentence=sentence), status))


def _worded_row(row: dict[str, Any], card: RulesetCard) -> dict[str, Any]:
    """A roster row with the ruleset's summary lines in the host's language, an order
    keyword in them (`POISON: left`) by the card's name for it."""
    return {
        **row,
        "role": in_host_language(row["role"], card),
        "more": [in_host_language(line, card) for line in row["more"]],
    }


@pages.get("/games/<game_id>")
def game(game_id: str) -> Any:
    return _page(game_id)


def _page(game_id: str, refused: str = "", kept: dict[str, str] | None = None) -> Any:
    """The game's page; after a refused answer, with the refusal and the host's words
    (`kept`: player and text) back in that player's reply box."""
    settings = settings_here()
    with reader(settings) as moderator:
        _known(moderator, game_id)
        try:
            loaded = load(moderator, game_id)
        except UserError as error:
            _refuse(refusal(error), 500)
        facts = {
            "game": loaded,
            "phase_name": loaded.rules.card.phase_words(loaded.phase.id) if loaded.phase else "",
            "clock": loaded.clock.status_text(),
            "roster": [_worded_row(row, loaded.rules.card) for row in game_facts.roster(loaded)],
            "substitutes": game_facts.substitutes(moderator.folder, game_id),
            "orders": game_facts.orders(loaded),
            "count": game_facts.count(loaded),
            "has_map": loaded.rules.host_view(loaded.state) is not None,
            "channels": game_facts.channels(loaded),
            "conversations": game_facts.conversations(loaded),
            "actions": game_facts.host_actions(loaded),
            "version": game_version(settings.data, game_id),
        }
    return render_template(
        "game.html", game_id=game_id, refused=refused, kept=kept or {}, **facts
    ), (400 if refused else 200)


@pages.get("/games/<game_id>/map.svg")
def game_map(game_id: str) -> Any:
    """The host's map of an Infiltration game, as `pbp show --svg` draws it, in the host's
    language as the desk is."""
    with reader(settings_here()) as moderator:
        _known(moderator, game_id)
        loaded = load(moderator, game_id)
        view = loaded.rules.host_view(loaded.state)
        if view is None:
            _refuse(
                f"Game {game_id} is a {loaded.record.ruleset} game, whose rules draw no map.", 404
            )
        word = partial(card_text, translations(settings_here().host_language))
        picture = loaded.rules.card.board_svg(view, word)
    return Response(picture, mimetype="image/svg+xml")


@pages.get("/games/<game_id>/version")
def version(game_id: str) -> Any:
    """What the game's page polls (static/desk.js): it changes when the game changes."""
    with reader(settings_here()) as moderator:
        _known(moderator, game_id)
    return jsonify(version=game_version(settings_here().data, game_id))


@pages.post("/games/<game_id>/reply")
def reply(game_id: str) -> Any:
    """The host answers a player's message to the host, as `pbp reply` does; the answer
    is queued in the outbox for `pbp run` to send."""
    player, text = request.form.get("player", ""), request.form.get("text", "")
    waited = Waited()
    try:
        with writer(settings_here(), waited) as moderator:
            _known(moderator, game_id)
            name = reply_command(moderator, game_id, player, text)
    except UserError as error:  # nothing was stored: the page again, the host's words kept
        return _page(game_id, refusal(error), {"player": player, "text": text})
    flash(said("Your answer to %(name)s is queued; pbp run sends it.", name=name), "done")
    if waited.note:
        flash(waited.note, "waited")
    return redirect(url_for("game.game", game_id=game_id, _anchor="messages"))
