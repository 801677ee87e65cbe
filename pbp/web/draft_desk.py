"""The drafts pages (docs/design.md: The drafts page): every game's drafts waiting, a
game's drafts as the forum will show them beside their source, one draft's editor; and
the host's actions on them through the functions `pbp draft edit|approve` and `pbp
publish` call: edit (refused while the leak check objects), approve, approve all,
publish now."""

from __future__ import annotations

from typing import Any, Callable

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from pbp.errors import UserError
from pbp.forum.publishing import review
from pbp.forum.config import load_forum_settings
from pbp.forum.publishing.leak_spans import leak_findings
from pbp.forum.publishing.publish import make_publisher, publish_now
from pbp.game.stored import StoredGame, load
from pbp.moderator import Moderator
from pbp.storage.drafts import DraftBook, DraftRow
from pbp.web.app import settings_here
from pbp.web.draft_views import draft_view, game_drafts, waiting_count
from pbp.web.folders import Waited, reader, writer
from pbp.web.forum_preview import typed
from pbp.web.host_words import refusal, said
from pbp.web.inert import shown

pages = Blueprint("drafts", __name__)
pages.add_app_template_filter(shown, "shown")  # the editor's text, invisibles written out
# The longest draft text the editor accepts (a forum post is far shorter).
LONGEST_DRAFT = 60_000


@pages.get("/drafts")
def waiting() -> Any:
    with reader(settings_here()) as moderator:
        folder = moderator.folder
        games = [(game_id, *waiting_count(folder.game(game_id))) for game_id in folder.game_ids()]
    return render_template("drafts_waiting.html", games=games)


@pages.get("/games/<game>/drafts")
def game_page(game: str) -> Any:
    with reader(settings_here()) as moderator:
        stored = _game(moderator, game)
        pending, past = game_drafts(stored)
    return render_template("drafts.html", game=game, pending=pending, past=past)


@pages.get("/games/<game>/drafts/<path:phase>")
def draft_page(game: str, phase: str) -> Any:
    with reader(settings_here()) as moderator:
        stored = _game(moderator, game)
        view = draft_view(stored, DraftBook(stored.file), _row(stored, phase))
    return render_template("draft.html", game=game, draft=view)


@pages.post("/games/<game>/drafts/<path:phase>/edit")
def save(game: str, phase: str) -> Any:
    """Keep the host's edit as `pbp draft edit` does, only if the leak check passes it;
    otherwise nothing changes and the editor comes back with the edit and its findings."""
    text = typed(request.form.get("text", "").replace("\r\n", "\n"))
    if not text.strip() or len(text) > LONGEST_DRAFT:
        flash(
            said(
                "A draft needs some text, and at most %(most)s characters; nothing was saved.",
                most=LONGEST_DRAFT,
            ),
            "refused",
        )
        return redirect(url_for(".draft_page", game=game, phase=phase))
    waited = Waited()
    with writer(settings_here(), waited) as moderator:
        stored = _game(moderator, game)
        book = DraftBook(stored.file)
        row = _row(stored, phase)
        leaks, _ = leak_findings(stored, book, row, text)
        if leaks:
            view = draft_view(stored, book, row, text)
            return (
                render_template(
                    "draft.html",
                    game=game,
                    draft=view,
                    refused=said(
                        "The leak check objects to this edit, so it was not saved: change the"
                        " marked words and save again."
                    ),
                ),
                422,
            )
        try:
            with stored.file.transaction():
                kept = review.edit(stored, row.phase, text)
        except UserError as error:
            flash(refusal(error), "refused")
            return redirect(url_for(".draft_page", game=game, phase=phase))
    _flash_waited(waited)
    flash(
        said("Kept your edit of %(phase)s.", phase=kept.phase)
        if kept.edited
        else said("%(phase)s is unchanged.", phase=kept.phase),
        "done",
    )
    return redirect(url_for(".draft_page", game=game, phase=kept.phase))


@pages.post("/games/<game>/drafts/<path:phase>/approve")
def approve(game: str, phase: str) -> Any:
    forced = request.form.get("force") == "yes"

    def act(stored: StoredGame) -> str:
        row = review.approve(stored, _row(stored, phase).phase, forced=forced)
        if row.forced:
            return said("Approved %(phase)s despite the leak check.", phase=row.phase)
        return said("Approved %(phase)s.", phase=row.phase)

    return _act(game, act)


@pages.post("/games/<game>/drafts/approve-all")
def approve_all(game: str) -> Any:
    def act(stored: StoredGame) -> str:
        approved, refused = review.approve_all(stored)
        if not approved and not refused:
            raise UserError.of("Game %(game)s has no draft waiting for approval.", game=stored.id)
        for phase, why in refused:
            flash(said("Not approved %(phase)s: %(why)s", phase=phase, why=why), "refused")
        phases = ", ".join(row.phase for row in approved)
        return (
            said("Approved %(num)s: %(phases)s.", num=len(approved), phases=phases)
            if approved
            else ""
        )

    return _act(game, act)


@pages.post("/games/<game>/drafts/publish")
def publish(game: str) -> Any:
    waited = Waited()
    events: list[str] = []
    try:
        with writer(settings_here(), waited) as moderator:
            _game(moderator, game)
            publisher = make_publisher(load_forum_settings(moderator.settings))
            done = publish_now(moderator, game, publisher, on_event=events.append)
    except UserError as error:
        flash(refusal(error), "refused")
        return redirect(url_for(".game_page", game=game))
    _flash_waited(waited)
    for line in events:
        flash(line, "done")
    flash(said("Published %(num)s post(s).", num=len(done.posts)), "done")
    if done.clock_started is not None:
        flash(
            said(
                "The phase's clock has started; the players' deadline notices are queued for"
                " `pbp run`."
            ),
            "done",
        )
    if done.waiting is not None:
        flash(
            said(
                "%(phase)s is not approved yet, so it and the posts after it wait.",
                phase=done.waiting.phase,
            ),
            "refused",
        )
    return redirect(url_for(".game_page", game=game))


def _act(game: str, act: Callable[[StoredGame], str]) -> Any:
    """Run `act` on the game as the one writer, in one transaction; a refusal changes
    nothing and is said in one sentence."""
    waited = Waited()
    try:
        with writer(settings_here(), waited) as moderator:
            stored = _game(moderator, game)
            with stored.file.transaction():
                answer = act(stored)
    except UserError as error:
        flash(refusal(error), "refused")
    else:
        _flash_waited(waited)
        if answer:
            publish = said("Publish now, or `pbp run` publishes in order.")
            flash(f"{answer} {publish}", "done")
    phase = (request.view_args or {}).get("phase")
    if phase and request.form.get("back") == "draft":
        return redirect(url_for(".draft_page", game=game, phase=phase))
    return redirect(url_for(".game_page", game=game))


def _game(moderator: Moderator, game: str) -> StoredGame:
    """The game, or 404: only an id the data folder lists is ever opened."""
    if game not in moderator.folder.game_ids():
        abort(404)
    return load(moderator, game)


def _row(game: StoredGame, phase: str) -> DraftRow:
    row = DraftBook(game.file).get(phase)
    if row is None:
        abort(404)
    return row


def _flash_waited(waited: Waited) -> None:
    if waited.note:
        flash(waited.note, "done")
