"""What an order form shows (docs/design.md: Order mail format — forms made to be replied to).

A form is made to be filled in literally, on a phone, through a mail program that wraps:
each order the player may give is a `#` line holding the order as it is written, with
`<…>` where the choice goes (`# NOMINATE <player>`), so that deleting the `#` and putting a
choice in place of the `<…>` gives a valid order. What helps choose (the rule's hint, the
choices) follows on `#` lines of its own, never after the order, and no line is longer than
a mail program leaves whole (pbp.mail.wrapping.WIDTH).
"""

from __future__ import annotations

import re
import textwrap
from typing import Any, Mapping, Sequence

from engine.core import OrderSpec, Phase, RulesetCard
from pbp.mail.wrapping import WIDTH
from pbp.render.card_texts import SEVERAL, hint_text
from pbp.render.keyword_names import keyword_in, line_in, names_by_language
from pbp.render.languages import SOURCE_LANGUAGE, translations

_HINT = "#   "  # a hint or the choices, under the order's line
_MORE = "#     "  # their next lines
_ALTERNATIVES = re.compile(r"^(.*?<[^>]+>)(?:\s+or\s+.*|\|.*)$")
_REPEATED = re.compile(r"(?:,\s*<[^>]+>)?\s*\.\.\.$")


def form_line(syntax: str, choices: Sequence[str]) -> str:
    """The order's line in a form: its syntax with one `<…>` per argument to fill in.
    Alternatives (`VOTE <player>|NO LYNCH`) become one `<choice>` (the choices list them),
    and a repeatable argument (`ATTACK <name>, <name> ...`) is written once."""
    alternatives = _ALTERNATIVES.match(syntax)
    if alternatives and choices:
        return re.sub(r"<[^>]+>$", "<choice>", alternatives.group(1))
    return _REPEATED.sub("", syntax)


def comment_lines(text: str) -> str:
    """A hint as the form's `#` lines under an order."""
    return "\n".join(
        textwrap.wrap(
            text, width=WIDTH, initial_indent=_HINT, subsequent_indent=_MORE, break_on_hyphens=False
        )
    )


def choice_lines(choices: Sequence[str], label: str = "choices:") -> str:
    """`#   choices: A, B, …` over as many `#` lines as it takes, never breaking a choice
    (`NO LYNCH`, `GUARD B`) across two lines."""
    lines: list[str] = []
    line = f"{_HINT}{label}"
    for index, choice in enumerate(choices):
        item = f"{choice}{',' if index < len(choices) - 1 else ''}"
        if len(line) + 1 + len(item) > WIDTH:
            lines.append(line)
            line = _MORE + item
        else:
            line = f"{line} {item}"
    lines.append(line)
    return "\n".join(lines)


def order_form(
    game_id: str,
    phase: Phase | None,
    player: str,
    token: str,
    deadline: str,
    channels: Sequence[str] = (),
    in_thread: Mapping[str, str] | None = None,
) -> dict[str, Any] | None:
    """The form for `player` in `phase`, or None when they have no orders to give and no
    team channel. `channels` are the team channels they belong to: a message form for each
    follows the order form (docs/design.md: Conversations); with channels and no orders,
    the form's `phase` is None. The orders whose keyword is in `in_thread` are given in the
    game's public thread (option `votes`): the form lists them apart, as `thread_orders`,
    each with the word a post takes it back with (`in_thread[keyword]`: `UNVOTE`)."""
    in_thread = in_thread or {}
    if phase is None or player not in phase.actors:
        if not channels:
            return None
        return {
            "game": game_id,
            "phase": None,
            "token": token,
            "deadline": deadline,
            "orders": [],
            "channels": list(channels),
        }
    specs: Sequence[OrderSpec] = phase.grammar.get(player, ())
    lines = [_order_line(s) for s in specs]
    form = {
        "channels": list(channels),
        "game": game_id,
        "phase": phase.id,
        "token": token,
        "deadline": deadline,
        "orders": [line for line in lines if str(line["keyword"]) not in in_thread],
    }
    posted = [
        {**line, "take_back": in_thread[str(line["keyword"])]}
        for line in lines
        if str(line["keyword"]) in in_thread
    ]
    return {**form, "thread_orders": posted} if posted else form


def _order_line(spec: OrderSpec) -> dict[str, Any]:
    """One order of the form: its keyword and syntax, the line to fill in, the choices
    and the note."""
    return {
        "keyword": spec.keyword,
        "syntax": spec.syntax,
        "line": form_line(spec.syntax, spec.choices),
        "choices": list(spec.choices),
        "note": _note(spec),
    }


def _note(spec: OrderSpec) -> str:
    several = SEVERAL if _REPEATED.search(spec.syntax) and "," in spec.syntax else ""
    return f"{spec.note}{several}" if spec.note else several.lstrip("; ")


def form_in_language(
    form: Mapping[str, Any] | None, card: RulesetCard, language: str
) -> Mapping[str, Any] | None:
    """The form as a reader of `language` fills it in: each order's line, syntax and
    take-back word with the keyword in that language (pbp.render.keyword_names), and its
    `withdraw` line, and its hint in that language's words (pbp.render.card_texts); an
    English form is the form itself."""
    if form is None or language == SOURCE_LANGUAGE or language not in names_by_language(card):
        return form
    catalog = translations(language)

    def spec_in(spec: Mapping[str, Any]) -> dict[str, Any]:
        named = {
            **spec,
            "line": line_in(str(spec["line"]), card, language),
            "syntax": line_in(str(spec["syntax"]), card, language),
            "note": hint_text(catalog, str(spec.get("note") or "")),
        }
        if "take_back" in spec:
            named["take_back"] = keyword_in(str(spec["take_back"]), card, language)
        return named

    named_form = {
        **form,
        "orders": [spec_in(spec) for spec in form.get("orders", ())],
        "withdraw": (
            f"{keyword_in('WITHDRAW', card, language)} <order>|{keyword_in('ALL', card, language)}"
        ),
    }
    if "thread_orders" in form:
        named_form["thread_orders"] = [spec_in(spec) for spec in form["thread_orders"]]
    return named_form
