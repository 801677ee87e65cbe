"""A refused order block's problems in the reader's language (docs/design.md: Refusals in
every language). The engine raises each problem as an English template with named values
(engine.errors.Wording); the catalog domain `refusals`, made by `scripts/catalogs extract`
from every template in engine/ and pbp/, words it, and the values are put in after: names
and rooms as written, a phase (the field `phase`) by the glossary, a nested wording (a
"Did you mean …?") worded the same way."""

from __future__ import annotations

import gettext
from functools import partial
from typing import Any, Callable, Mapping, Sequence

from engine.errors import OrderError, Term, Wording
from pbp.mail.limits import MAX_PROBLEM_CHARS, MAX_PROBLEMS_LISTED, quoted
from pbp.render.languages import SOURCE_LANGUAGE
from pbp.render.moments import Moment, Span

CONTEXT = "refusal"
# How a problem is placed on its line of the mail (engine.errors.OrderError.__str__).
ON_LINE = 'Line %(line)s: "%(text)s" — %(message)s'
# The line counting the problems past the listed ones (pbp.mail.limits.listed).
MORE = ("and %(num)s more problem", "and %(num)s more problems")
# The field a template names a phase by, worded by the glossary (filter `phase_label`).
PHASE = "phase"
Label = Callable[[object], str]
# The shell's own sentences of the domain, besides the templates found in the code.
SHELL_MESSAGES = (ON_LINE,)


class WordedText(str):
    """An English sentence that keeps its Wording: it is a string wherever English is
    written (`pbp status --json`, the command line), and the desk words it again in the
    host's language (pbp.web.host_words)."""

    wording: Wording

    def __new__(cls, wording: Wording) -> "WordedText":
        text = super().__new__(cls, str(wording))
        text.wording = wording
        return text


def worded(
    catalog: gettext.NullTranslations,
    wording: Wording,
    phase: Label = str,
    language: str = SOURCE_LANGUAGE,
    labels: Mapping[str, Label] | None = None,
) -> str:
    """`wording` as `catalog` words it, its values put in (a nested wording worded too, a
    phase by `phase`, a moment or a span of time (pbp.render.moments) in `language`, the
    field named in `labels` by its label: a role by the glossary; a Term under its own context)."""
    if not wording.template:
        return ""
    template = catalog.pgettext(CONTEXT, wording.template)
    if not wording.params:
        return template
    values = {
        name: (
            worded(catalog, value, phase, language, labels)
            if isinstance(value, Wording)
            else catalog.pgettext(value.context, value.word)
            if isinstance(value, Term)
            else value.in_language(language)
            if isinstance(value, (Moment, Span))
            else phase(value)
            if name == PHASE
            else labels[name](value)
            if labels and name in labels
            else str(value)
        )
        for name, value in wording.params.items()
    }
    return template % values


def problem_line(catalog: gettext.NullTranslations, error: OrderError, phase: Label = str) -> str:
    """One problem as `str(error)` says it in English, in `catalog`'s language."""
    message = worded(catalog, error.wording, phase)
    if error.earlier:
        message = message.replace("{earlier}", str(error.earlier))
    if not error.line:
        return message
    return catalog.pgettext(CONTEXT, ON_LINE) % {
        "line": error.line,
        "text": error.text,
        "message": message,
    }


def refusal_lines(
    catalog: gettext.NullTranslations, english: bool, phase: Label, verdict: Any
) -> list[str]:
    """The problems of a `bad_orders` verdict as its reader reads them: the English lines
    it holds (`errors`) for an English reader, else each placed error (`placed`) worded
    in the reader's language, listed and cut as `pbp.mail.limits.listed` lists them."""
    placed: Sequence[OrderError] | None = verdict.facts.get("placed")
    if english or placed is None:
        return list(verdict["errors"])
    return _listed(catalog, [problem_line(catalog, e, phase) for e in placed])


def refusal_line(
    catalog: gettext.NullTranslations,
    english: bool,
    phase: Label,
    error: OrderError | Wording | str,
) -> str:
    """One refused order's problem, unplaced (a thread post's vote, pbp.forum.thread), or
    a Wording (a phase with its id), in the reader's language: for an English reader the
    sentence as the error says it; a plain text as it is."""
    if isinstance(error, str):
        return error
    if isinstance(error, Wording):
        return str(error) if english else worded(catalog, error, phase)
    if english:
        return error.message.replace("{earlier}", str(error.earlier))
    return problem_line(catalog, error.at(0, ""), phase)


def problem_lines(
    catalog: gettext.NullTranslations, phase: Label, problems: Sequence[Wording | str]
) -> list[str]:
    """Problems held as Wordings (a sign-up's, pbp.signups.details) in the reader's
    language, listed and cut as `pbp.mail.limits.listed` lists them; for an English
    reader the very lines `listed` makes."""
    return _listed(
        catalog, [worded(catalog, p, phase) if isinstance(p, Wording) else p for p in problems]
    )


def _listed(catalog: gettext.NullTranslations, said: Sequence[str]) -> list[str]:
    """`said` as `pbp.mail.limits.listed` lists it, its last line in `catalog`'s language."""
    shown = [quoted(line, MAX_PROBLEM_CHARS) for line in said[:MAX_PROBLEMS_LISTED]]
    rest = len(said) - MAX_PROBLEMS_LISTED
    if rest > 0:
        more = catalog.npgettext(CONTEXT, MORE[0], MORE[1], rest)
        shown.append(more % {"num": f"{rest:,}"})
    return shown


def install(env: Any, catalog: gettext.NullTranslations, language: str) -> None:
    """Give a renderer's environment the filters `refusal_lines`, `refusal_line` and
    `problem_lines` in
    `language` (after the glossary's filters, whose `phase_label` they use)."""
    english = language == SOURCE_LANGUAGE
    phase = env.filters.get("phase_label", str)
    env.filters["refusal_lines"] = partial(refusal_lines, catalog, english, phase)
    env.filters["problem_lines"] = partial(problem_lines, catalog, phase)
    env.filters["refusal_line"] = partial(refusal_line, catalog, english, phase)
