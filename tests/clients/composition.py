"""A reply as the player composed it, before any client lays it out: the player's own
lines above and below the quote, and the quoted mail with the player's edits in it.
`plain_text` lays it out as the client's text/plain part."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from tests.clients.clients import Client
from tests.clients.text_shapes import Line, flowed, hard_wrapped, quoted


class QuoteLine(NamedTuple):
    """One line of the mail being replied to: its own quote depth in that mail and text,
    or (typed) a line the player typed into the quote where a line of that depth stands."""

    depth: int
    text: str
    typed: bool = False


@dataclass
class Reply:
    above: list[str] = field(default_factory=list)
    attribution: str = ""  # "On … wrote:" (prefix quoting) or "" (an Outlook header block)
    header: list[tuple[str, str]] = field(default_factory=list)  # Outlook's block: (label, value)
    separator: str = ""  # the line above the header block
    quote: list[QuoteLine] = field(default_factory=list)
    below: list[str] = field(default_factory=list)


def logical_lines(reply: Reply, client: Client) -> list[Line]:
    """The reply's lines with their quote depth, as the client arranges them."""
    lines = [Line(0, text) for text in reply.above]
    if lines:
        lines.append(Line(0, ""))
    if client.quote == "header":
        intro = [reply.separator] if reply.separator else []
        intro += [f"{label} {value}" for label, value in reply.header]
        if reply.attribution:
            intro.append(reply.attribution)
        lines += [Line(0, text) for text in intro] + [Line(0, "")]
        lines += [Line(q.depth, q.text) for q in reply.quote]
    else:
        attribution_depth = 1 if client.attribution_quoted else 0
        lines += [Line(attribution_depth, reply.attribution), Line(attribution_depth, "")]
        for index, q in enumerate(reply.quote):
            typed_outside = q.typed and client.typing_leaves_quote
            before = reply.quote[index - 1] if index else None
            if (
                client.blank_around_typed
                and client.typing_leaves_quote
                and before
                and before.typed != q.typed
            ):
                lines.append(Line(0, ""))  # between the quote and the lines typed into it
            lines.append(Line(0 if typed_outside else q.depth + 1, q.text))
    if reply.below:
        lines += [Line(0, "")] + [Line(0, text) for text in reply.below]
    return lines


def plain_text(reply: Reply, client: Client) -> str:
    """The text/plain part: quoted, then wrapped as the client wraps (hard at its column,
    format=flowed, or not at all)."""
    lines = logical_lines(reply, client)
    if client.wrap == "hard":
        physical = hard_wrapped(lines, client.quote_style, client.width)
    elif client.wrap == "flowed":
        physical = flowed(lines, client.width, client.delsp)
    else:
        physical = quoted(lines, client.quote_style)
    return "\n".join(physical) + "\n"
