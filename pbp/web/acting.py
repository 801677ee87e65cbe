"""How each of the desk's actions runs: as the data folder's one writer (waiting for `pbp
run` as a command does), through the operation its command runs (pbp.host.actions), then
one flash per line of the answer the command prints and a redirect back to the page
(POST/redirect/GET). A refusal is the UserError's sentence, and nothing changes; both
are in the host's language (pbp.web.host_words).

The mail an action queues stays in the outbox for `pbp run` to send: sending from a page
would hold the request, and the data folder's lock, for as long as the mail server takes
(docs/design.md: The host's desk in the browser — actions)."""

from __future__ import annotations

from typing import Any, Callable, Iterable

from flask import flash, redirect

from pbp.errors import UserError
from pbp.moderator import Moderator
from pbp.render.languages import translations
from pbp.web.app import settings_here
from pbp.web.folders import Waited, writer
from pbp.web.host_words import Said, answer_lines, refusal

DONE, REFUSED, WAITED = "done", "refused", "waited"


# The same message as actions.html's, so that the desk's catalog (web) holds it.
QUEUED = "Notices queued: %(num)s; pbp run sends them."


def queued_line(count: int) -> str:
    """How many notices wait for `pbp run`, in the host's language as the desk's pages."""
    return translations(settings_here().host_language).gettext(QUEUED) % {"num": count}


def run_action(
    operation: Callable[[Moderator], Said | Iterable[Said]], back: str, after: str = ""
) -> Any:
    """Run `operation` as the one writer and redirect with its answer flashed: to `after`
    (default `back`) when it is done, to `back` when it is refused."""
    waited = Waited()
    try:
        with writer(settings_here(), waited) as moderator:
            lines = answer_lines(operation(moderator))  # worded in the host's language
            queued = moderator.outbox.pending()
    except UserError as error:
        flash(refusal(error), REFUSED)
        return redirect(back)
    for line in lines:
        flash(line, DONE)
    flash(queued_line(queued), DONE)
    if waited.note:
        flash(waited.note, WAITED)
    return redirect(after or back)


def field(form: Any, name: str) -> str:
    """A form field's text, stripped; "" when it is missing."""
    return str(form.get(name, "")).strip()
