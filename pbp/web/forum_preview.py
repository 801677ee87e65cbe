"""A draft as its forum will show it (docs/design.md: The drafts page): Markdown with
markdown-it-py, BBCode with the `bbcode` package, raw HTML always escaped.

- Discourse renders posts with markdown-it (the JavaScript original of markdown-it-py):
  CommonMark with tables and strikethrough, and a single line break kept as a break (its
  default, `traditional markdown linebreaks` off).
- Reddit's own renderer is not a Python library; since its 2018 redesign it parses
  CommonMark with tables and strikethrough (and spoilers and superscript, which pbp's
  posts never use), so that is what the preview uses; a single line break joins lines,
  as on Reddit.
- Classic forums (phpBB, vBulletin, SMF) speak BBCode; the `bbcode` package renders the
  tags pbp's dialect writes, with `[size]` added (as classes: the desk's content security
  policy forbids inline styles).

Raw HTML in a draft is text on every forum pbp posts to, so it is escaped here too
(markdown-it's `html` off; `bbcode` escapes by default); links keep to http(s) and mail
(markdown-it refuses `javascript:` and its kin, `bbcode` drops them). Invisible and
direction-changing characters are shown as what they are (pbp.web.inert) before the
text is rendered, so a preview cannot hide or reorder words."""

from __future__ import annotations

import re
import sys
import unicodedata
from typing import Any

from markupsafe import Markup

from pbp.web.inert import INVISIBLE_CATEGORIES, shown

BBCODE_SIZES = {"1": "bb-small", "150": "bb-large"}


def _markdown(line_breaks: bool) -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False, "breaks": line_breaks}).enable(
        ["table", "strikethrough"]
    )


def _bbcode() -> Any:
    import bbcode

    parser = bbcode.Parser(escape_html=True, replace_links=True, replace_cosmetic=False)

    def size(*call: Any) -> str:  # (tag name, value, options, parent, context)
        value, options = call[1], call[2]
        name = BBCODE_SIZES.get(options.get("size", "").strip(), "")
        return f'<span class="{name}">{value}</span>' if name else value

    parser.add_formatter("size", size)
    return parser


def forum_html(text: str, dialect: str) -> Markup:
    """`text`, a draft in `dialect` (markdown, discourse or bbcode), as HTML its forum
    would show."""
    visible = shown(text)
    if dialect == "bbcode":
        return Markup(_bbcode().format(visible))
    markdown = _markdown(line_breaks=dialect == "discourse")
    tokens = markdown.parse(visible)
    for token in tokens:
        # A post's headings are the post's, not the desk page's: shown as headings, kept
        # out of the page's outline (one h1, no skipped level).
        if token.type in ("heading_open", "heading_close"):
            if token.type == "heading_open":
                token.attrSet("class", f"forum-heading forum-{token.tag}")
            token.tag = "p"
    return Markup(markdown.renderer.render(tokens, markdown.options, {}))


# Which forum each dialect is read on, for the page's headings.
FORUM_OF = {"markdown": "Reddit", "discourse": "Discourse", "bbcode": "a classic forum (BBCode)"}


def typed(text: str) -> str:
    """The text the host meant, from the editor: the editor shows each invisible or
    direction-changing character as `⟨U+XXXX⟩` (`shown`), so that it can neither hide nor
    reorder what the host reads; saving turns each back into its character."""

    def character(found: re.Match[str]) -> str:
        code = int(found.group(1), 16)
        char = chr(code) if code <= sys.maxunicode else ""
        return (
            char if char and unicodedata.category(char) in INVISIBLE_CATEGORIES else found.group(0)
        )

    return re.sub(r"⟨U\+([0-9A-F]{4,6})⟩", character, text)
