"""A plain-text rendering of an HTML-only mail (docs/design.md: Order mail format, "plain text
or a text rendering of HTML"), made with the standard library's `html.parser`.

Block elements end lines, `<br>` breaks them, `<script>`/`<style>` are dropped, and so is
what a mail client would not show (an element with `hidden`, `display:none` or
`visibility:hidden` in its style), so a hidden block never wins over the visible one; text
inside `<blockquote>` is prefixed with `> ` per level so that a form quoted by an HTML mail
client is found by the quoted-form fallback like a plain-text quote.

An HTML-only mail is hostile input read before any identity check, so the work is linear
in its size (docs/design.md: Hostile input): comments are dropped by one scan (an
unclosed one hides the rest, as in a browser), a `<` that does not open a tag closed within
`MAX_TAG_CHARS` (before any other `<`) is text, since the standard library's parser
rescans the rest of the mail for each such `<`; a declaration it cannot read ends the
rendering there; at most `MAX_QUOTE_DEPTH` levels of quoting are marked on a line, and the
rendering stops at `MAX_RENDERED_CHARS`.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_LINE_BREAKING = frozenset(
    "p div tr li ul ol table h1 h2 h3 h4 h5 h6 pre blockquote section article header "
    "footer hr dl dt dd address".split()
)
_INVISIBLE = frozenset({"script", "style", "head", "title", "template"})
_WHITESPACE = re.compile(r"[ \t\r\n\f]+")
_HIDING_STYLE = re.compile(
    r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b", re.IGNORECASE
)
_VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
MAX_TAG_CHARS = 2_000
MAX_QUOTE_DEPTH = 8
MAX_RENDERED_CHARS = 1_000_000
# Each lookahead stops at the next `<` or `>` and at MAX_TAG_CHARS: linear over the mail.
_STRAY_OPENING = re.compile(r"<(?![A-Za-z/!?][^<>]{0,%d}>)" % MAX_TAG_CHARS)


def _not_shown(attrs: list[tuple[str, str | None]]) -> bool:
    return any(
        name == "hidden" or (name == "style" and value and _HIDING_STYLE.search(value))
        for name, value in attrs
    )


class _TextRenderer(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.size = 0
        self._line: list[str] = []
        self._line_depth = 0
        self._quote_depth = 0
        self._hidden = 0
        self._pre = 0
        self._unshown: tuple[str, int] | None = None  # the hidden element's tag, and its nesting

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._unshown is not None:
            if tag == self._unshown[0]:
                self._unshown = (tag, self._unshown[1] + 1)
            return
        if tag not in _VOID and _not_shown(attrs):
            self._unshown = (tag, 1)
        elif tag in _INVISIBLE:
            self._hidden += 1
        elif tag == "br":
            self._break(force=True)
        elif tag in _LINE_BREAKING:
            self._break()
            if tag == "blockquote":
                self._quote_depth += 1
            if tag == "pre":
                self._pre += 1
        elif tag in ("td", "th") and self._line:
            self._line.append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._unshown is not None:
            return
        if tag == "br":
            self._break(force=True)
        elif tag in _LINE_BREAKING:
            self._break()

    def handle_endtag(self, tag: str) -> None:
        if self._unshown is not None:
            if tag == self._unshown[0]:
                self._unshown = (tag, self._unshown[1] - 1) if self._unshown[1] > 1 else None
            return
        if tag in _INVISIBLE:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _LINE_BREAKING:
            self._break()
            if tag == "blockquote":
                self._quote_depth = max(0, self._quote_depth - 1)
            if tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._hidden or self._unshown is not None:
            return
        if self._pre:
            first, *rest = data.split("\n")
            self._add(first)
            for piece in rest:
                self._break(force=True)
                self._add(piece)
            return
        text = _WHITESPACE.sub(" ", data)
        if not self._line:
            text = text.lstrip()
        self._add(text)

    def _add(self, text: str) -> None:
        if not text or self.size >= MAX_RENDERED_CHARS:
            return
        if not self._line:
            self._line_depth = self._quote_depth
        self._line.append(text)
        self.size += len(text)

    def _break(self, force: bool = False) -> None:
        """End the current line; a forced break (`<br>`) keeps empty lines too."""
        if (self._line or force) and self.size < MAX_RENDERED_CHARS:
            depth = min(self._line_depth if self._line else self._quote_depth, MAX_QUOTE_DEPTH)
            line = ("> " * depth + "".join(self._line).rstrip()).rstrip()
            self.lines.append(line)
            self.size += len(line) + 1
        self._line = []

    def text(self) -> str:
        self._break()
        return "\n".join(self.lines)


def _without_comments(html: str) -> str:
    kept, position = [], 0
    while (start := html.find("<!--", position)) >= 0:
        kept.append(html[position:start])
        end = html.find("-->", start + 4)
        position = len(html) if end < 0 else end + 3
    kept.append(html[position:])
    return "".join(kept)


def html_to_text(html: str) -> str:
    """The readable text of an HTML document, one output line per visual line."""
    renderer = _TextRenderer()
    try:
        renderer.feed(_STRAY_OPENING.sub("&lt;", _without_comments(html)))
        renderer.close()
    except AssertionError:  # _markupbase's answer to a declaration it cannot read
        pass
    return renderer.text()
