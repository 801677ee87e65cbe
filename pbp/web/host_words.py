"""The desk's sentences built in Python, in the host's language (docs/design.md: Languages —
the desk's words): a host action's answer and a refusal are Wordings (engine.errors.Wording,
the catalog domain `refusals`), worded here with the host's catalog; a plain string is
shown as it is. The command line prints the same answers with `str()`, in English."""

from __future__ import annotations

from typing import Any, Iterable

from engine.core import RulesetCard
from engine.errors import Value, Wording
from pbp.errors import UserError
from pbp.render.glossary_words import filters_in
from pbp.render.keyword_names import keyword_in
from pbp.render.languages import SOURCE_LANGUAGE, translations
from pbp.render.refusals import WordedText, refusal_lines, worded
from pbp.web.app import settings_here

Said = str | Wording


def in_host_language(said: Said, card: RulesetCard | None = None) -> str:
    """One sentence (a Wording, or a string shown as it is) in the host's language; with
    the ruleset's `card`, an order keyword (the field `keyword`) by the card's name for it
    in that language (pbp.render.keyword_names)."""
    if isinstance(said, WordedText):
        said = said.wording
    if not isinstance(said, Wording):
        return said
    language = settings_here().host_language
    if language == SOURCE_LANGUAGE:
        return str(said)  # English: what the command line prints, byte for byte
    glossary = filters_in(language)  # a role, class, faction or team by the glossary's name
    labels = {
        "role": glossary["role"],
        "class": glossary["role"],
        "faction": glossary["faction"],
        "team": glossary["team"],
        "ruleset": glossary["ruleset_name"],
    }
    if card is not None:
        labels["keyword"] = lambda keyword: keyword_in(str(keyword), card, language)
    return worded(translations(language), said, str, language, labels)  # a phase id as it is


def said(template: str, **values: Value) -> str:
    """A sentence only the desk says (no command prints it), in the host's language."""
    return in_host_language(Wording(template, values))


def answer_lines(said: Said | Iterable[Said]) -> list[str]:
    """An operation's answer, one line each, in the host's language."""
    parts = [said] if isinstance(said, (str, Wording)) else list(said)
    return [line for part in parts for line in in_host_language(part).split("\n")]


def problem_lines(verdict: Any) -> list[str]:
    """A `bad_orders` verdict's problems as the host reads them (refusal_lines: the English
    lines for an English host, else each placed error worded anew)."""
    language = settings_here().host_language
    phase = filters_in(language).get("phase_label", str)
    return refusal_lines(translations(language), language == SOURCE_LANGUAGE, phase, verdict)


def refusal(error: UserError) -> str:
    """A refused action's sentence in the host's language."""
    return in_host_language(error.wording)
