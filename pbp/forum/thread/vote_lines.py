"""The order lines of a forum post (docs/design.md: Public posts — votes in the thread).

A line of a post that starts with an order word, in any case, with or without bold or
other inline markup, is an order line: `**VOTE Bruno**`, `[b]vote: bruno[/b]`,
`Vote: Bruno.` all read as `VOTE Bruno`. When the line opens with a bold span, only the
span is the order (`**VOTE Bruno** because he lied`), as forum players bold their vote and
talk after it (a span holding the order word alone is not the whole order: `**VOTE:**
Bruno`). What the forum does not show is never read: HTML comments (`<!-- … -->`;
Discourse renders Markdown with HTML). Lines that are not the author's own words are
never orders: quotes (`>` in Markdown, `[quote]` in BBCode, `<blockquote>`), code
(fenced, indented, `[code]`, code spans) and spoilers (`>!…!<`, `[spoiler]`, `[details]`).

A post is hostile input: only its first `MAX_LINES` lines are read, a line is cut at
`MAX_LINE` characters, and the work is linear in the post's size. A post holding none of
the order words is set aside by one search of its text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Collection, Iterator, Mapping

MAX_LINES = 1_000
MAX_LINE = 200
MAX_ORDER_LINES = 20  # order lines kept per post; a post counts its last line per order
MAX_NESTING = 100

_REGION = re.compile(
    r"\[(/?)(quote|code|spoiler|details)(?:=[^\]\n]{0,200})?\]"
    r"|<(/?)(blockquote|details|pre|code)\b[^>\n]{0,200}>",
    re.IGNORECASE,
)
_INLINE_HIDDEN = (("`", "`"), (">!", "!<"))  # code spans, Reddit's inline spoilers
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
_QUOTE = re.compile(r"^ {0,3}>")
_LIST_MARK = re.compile(r"^(?:[-*+]\s+|\d{1,3}[.)]\s+|#{1,6}\s+)")
_BOLD_FIRST = re.compile(
    r"^(?:(\*\*|__)(.+?)(?:\1|$)|\[b\](.+?)(?:\[/b\]|$)|<(b|strong)>(.+?)(?:</\4>|$))",
    re.IGNORECASE,
)
_TAGS = re.compile(
    r"\[/?[a-z]{1,10}(?:=[^\]]{0,100})?\]|</?[a-z][^>]{0,100}>|\*\*|__|~~|\*", re.IGNORECASE
)
_ORDER = re.compile(r"^([A-Za-z]+)\s*:?(?:\s+(.*))?$")


@dataclass(frozen=True)
class OrderLine:
    """`text` is the line as the engine reads it (`VOTE Bruno`); `written` the post's own
    line, for the host and the player; `number` counts the post's lines from 1."""

    number: int
    keyword: str
    text: str
    written: str


def _shown(text: str) -> str:
    """The post as the forum shows it: HTML comments dropped (an unclosed one hides the
    rest), each replaced by its line ends so lines keep their numbers."""
    if "<!--" not in text:
        return text
    return "".join(_comments_as_line_ends(text))


def _comments_as_line_ends(text: str) -> Iterator[str]:
    position = 0
    while (start := text.find("<!--", position)) >= 0:
        yield text[position:start]
        end = text.find("-->", start + 4)
        end = len(text) if end < 0 else end + 3
        yield "\n" * text.count("\n", start, end)
        position = end
    yield text[position:]


def own_lines(text: str) -> Iterator[tuple[int, str]]:
    """(number, line) of the post's own words: quotes, code and spoilers left out."""
    depth = 0
    fenced = False
    for number, line in enumerate(_shown(text).splitlines()[:MAX_LINES], start=1):
        if _FENCE.match(line) and not depth:
            fenced = not fenced
            continue
        if fenced or (not depth and (_QUOTE.match(line) or line.startswith(("    ", "\t")))):
            continue
        kept: list[str] = []
        position = 0
        for tag in _REGION.finditer(line):
            if not depth:
                kept.append(line[position : tag.start()])
            closing = bool(tag.group(1) or tag.group(3))
            depth = max(depth - 1, 0) if closing else min(depth + 1, MAX_NESTING)
            position = tag.end()
        if not depth:
            kept.append(line[position:])
        own = without_inline_hidden("".join(kept))
        if own.strip():
            yield number, own


def without_inline_hidden(line: str) -> str:
    """`line` with its code spans and inline spoilers as spaces, in one scan: the leftmost
    opening mark wins, and a mark with no closing one after it is text, as is every later
    one of its kind (none of them can close), so no mark is looked for twice."""
    kept, position = [], 0
    found = {opening: line.find(opening) for opening, _ in _INLINE_HIDDEN}
    closing = dict(_INLINE_HIDDEN)
    while True:
        for opening, at in found.items():  # marks passed by the last span are looked for again
            if 0 <= at < position:
                found[opening] = line.find(opening, position)
        live = [(at, opening) for opening, at in found.items() if at >= 0]
        if not live:
            break
        at, opening = min(live)
        end = line.find(closing[opening], at + len(opening))
        if end < 0:
            found[opening] = -1
            continue
        kept.append(line[position:at])
        kept.append(" ")
        position = end + len(closing[opening])
    kept.append(line[position:])
    return "".join(kept)


def _plain(text: str) -> str:
    """Visible characters only (no control or invisible format characters), spaces for
    every kind of space."""
    if text.isascii() and text.isprintable():
        return text  # most lines: nothing to take out
    return "".join(
        " " if char.isspace() else char
        for char in text
        if unicodedata.category(char) not in ("Cc", "Cf", "Co", "Cs", "Cn") or char.isspace()
    )


def order_line(number: int, line: str, words: Collection[str]) -> OrderLine | None:
    """The line as an order whose first word is one of `words` (upper case), or None.
    `words` may map each word to the English word it stands for (a thread's language's
    `ABSTIMMEN` -> `VOTE`): the line is then read as written with that word."""
    text = _LIST_MARK.sub("", _plain(line).strip()[: MAX_LINE * 2])
    bold = _BOLD_FIRST.match(text)
    if bold:  # the bold span is the order, unless it holds the order word alone (`**VOTE:** Bruno`)
        span = next(
            group for group in (bold.group(2), bold.group(3), bold.group(5)) if group is not None
        )
        text = span if len(span.split()) > 1 else text
    text = " ".join(_TAGS.sub(" ", text).split())
    match = _ORDER.match(text)
    if not match or match.group(1).upper() not in words:
        return None
    keyword = match.group(1).upper()
    keyword = words[keyword] if isinstance(words, Mapping) else keyword
    rest = (match.group(2) or "").strip().rstrip(" .!;,")
    return OrderLine(
        number, keyword, f"{keyword} {rest}".strip()[:MAX_LINE], line.strip()[:MAX_LINE]
    )


def order_lines(text: str, words: Collection[str]) -> list[OrderLine]:
    """The post's order lines (see the module's docstring), in the post's order; at most
    `MAX_ORDER_LINES`, the last ones (a later line counts over an earlier one)."""
    return read_post(text, words)[0]


def read_post(text: str, words: Collection[str]) -> tuple[list[OrderLine], int]:
    """The post's order lines (as `order_lines`) and the words the author wrote themself
    (quotes, code and spoilers not counted), in one pass over the post."""
    lowered = text.lower()
    wanted = [word.lower() for word in words if word.lower() in lowered]  # most posts are talk
    found, count = [], 0
    for number, own in own_lines(text):
        count += len(own.split())
        if wanted and any(word in own.lower() for word in wanted):
            line = order_line(number, own, words)
            if line is not None:
                found.append(line)
    return found[-MAX_ORDER_LINES:], count
