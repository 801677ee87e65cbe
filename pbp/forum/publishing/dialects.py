"""Forum markup dialects, and escaping of player-written text for each (docs/design.md: Public
posts: "player-written text is escaped for the dialect so it cannot break the
post's markup").

A post template never formats markup by hand: it calls the dialect (`fmt.bold(x)`,
`fmt.item(x)`, …). Every value those helpers receive is escaped unless it is already
`PostText` (text the dialect produced or escaped itself), so a name or an anonymous message
can only ever come out as literal text.
"""

from __future__ import annotations

import re
import unicodedata
from abc import ABC, abstractmethod
from typing import Any

from markupsafe import Markup


class PostText(Markup):
    """Text that is already valid markup in its dialect: never escaped again.

    It is a `Markup` so that Jinja, run with autoescaping on, treats it (and the output of
    template macros) as finished; `finalize` in pbp.forum.publishing.post_renderer escapes
    everything else for the dialect, so markupsafe's HTML escaping never runs on post text.
    """


def _plain_line(text: Any) -> str:
    """One line of visible text: no control or invisible format characters (zero-width
    spaces, bidi overrides that could hide or reorder text), no line breaks (a line break
    could open a new block: a list, a quote, a heading), whitespace runs collapsed (four
    leading spaces would open a Markdown code block)."""
    cleaned = []
    for char in str(text):
        category = unicodedata.category(char)
        if char in "\t\n\r\v\f\u0085\u2028\u2029":
            cleaned.append(" ")
        elif category in ("Cc", "Cf", "Co", "Cs", "Cn"):
            continue
        else:
            cleaned.append(char)
    return re.sub(r"\s+", " ", "".join(cleaned))


class Dialect(ABC):
    """What a post template may ask of a markup language."""

    name = ""
    extension = ""

    @abstractmethod
    def escape(self, text: Any) -> PostText:
        """Any text as literal text in this dialect."""

    def escape_player_text(self, text: Any) -> PostText:
        """Player-written text as literal text: by default, as `escape` does."""
        return self.escape(text)

    def _safe(self, value: Any) -> str:
        """Finished markup (ours, or a template macro's output) as is; anything else escaped."""
        return str(value) if hasattr(value, "__html__") else self.escape(value)

    def join(self, *parts: Any) -> PostText:
        return PostText("".join(self._safe(part) for part in parts))

    # The markup a template asks for by name (`fmt.bold(x)`); each dialect writes its own.
    @abstractmethod
    def bold(self, text: Any) -> PostText: ...

    @abstractmethod
    def italic(self, text: Any) -> PostText: ...

    @abstractmethod
    def heading(self, text: Any) -> PostText: ...

    @abstractmethod
    def item(self, text: Any) -> PostText: ...

    @abstractmethod
    def quote(self, text: Any) -> PostText: ...

    @abstractmethod
    def rule(self) -> PostText: ...

    @abstractmethod
    def small(self, text: Any) -> PostText: ...

    @abstractmethod
    def title(self, text: Any) -> str:
        """A post's title: plain text, where markup means nothing."""

    @abstractmethod
    def list_open(self) -> PostText: ...

    @abstractmethod
    def list_close(self) -> PostText: ...


class Markdown(Dialect):
    """Reddit Markdown (snudown and the newer CommonMark renderer)."""

    # Characters with a meaning anywhere in a line, in either renderer: emphasis,
    # strikethrough, superscript (`^(`), spoilers (`>!`), links and images (`[`), tables,
    # entities (`&#x200B;`), inline HTML, code. Everything else is only special at the
    # start of a line (headings, lists, quotes, rules) or as an `r/` or `u/` autolink, and
    # is escaped only there, so the post stays readable in `pbp draft edit` and in mail.
    _ANYWHERE = re.compile(r"([\\`*_\[\]<>&|~^])")
    _LINE_START = re.compile(r"^(\s*|\s*\d+)((?<=\d)[.)]|(?<!\d)[#+=-])")
    _AUTOLINK = re.compile(r"(?<![\w/])([rRuU])/")
    # Player-written text (an anonymous message) is hostile: every ASCII punctuation
    # character either renderer gives a meaning to is escaped, wherever it stands.
    # CommonMark accepts a backslash before any ASCII punctuation, so over-escaping is harmless.
    _SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!:|&<>/^~=])")

    name = "markdown"
    extension = "md"

    def escape(self, text: Any) -> PostText:
        line = self._ANYWHERE.sub(r"\\\1", _plain_line(text))
        line = self._AUTOLINK.sub(r"\1\\/", line)
        return PostText(self._LINE_START.sub(r"\1\\\2", line))

    def escape_player_text(self, text: Any) -> PostText:
        return PostText(self._SPECIAL.sub(r"\\\1", _plain_line(text)))

    def bold(self, text: Any) -> PostText:
        return PostText(f"**{self._safe(text)}**")

    def italic(self, text: Any) -> PostText:
        return PostText(f"*{self._safe(text)}*")

    def heading(self, text: Any) -> PostText:
        return PostText(f"## {self._safe(text)}")

    def item(self, text: Any) -> PostText:
        return PostText(f"* {self._safe(text)}")

    def quote(self, text: Any) -> PostText:
        return PostText(f"> {self._safe(text)}")

    def rule(self) -> PostText:
        return PostText("---")

    def small(self, text: Any) -> PostText:
        """Tiny text: Reddit's superscript. `text` is a marker, not player text."""
        return PostText(f"^({self._safe(text)})")

    def title(self, text: Any) -> str:
        """A submission title is plain text on Reddit: the escapes come off again."""
        return re.sub(r"\\(.)", r"\1", str(text))

    def list_open(self) -> PostText:
        return PostText("")  # Markdown lists need no wrapper

    def list_close(self) -> PostText:
        return PostText("")

    def link(self, text: Any, url: str) -> PostText:
        """A link to `url` (an address pbp made from the forum's answer; never player text)."""
        address = _address(url)
        return (
            PostText(f"[{self._safe(text)}]({address})") if address else PostText(self._safe(text))
        )


class DiscourseMarkdown(Markdown):
    """Markdown as Discourse renders it (CommonMark with Discourse's additions): an `@name`
    would notify that account and `:name:` draw an emoji, so an `@` or `:` before a name
    is escaped; BBCode tags
    are escaped by the brackets already; tiny text is HTML's `<small>`, which Discourse
    allows (Reddit's `^(…)` means nothing there)."""

    name = "discourse"
    extension = "discourse.md"
    _DISCOURSE = re.compile(r"([@:])(?=[A-Za-z_+-])")  # a mention or an emoji code starts so

    def escape(self, text: Any) -> PostText:
        return PostText(self._DISCOURSE.sub(r"\\\1", super().escape(text)))

    def escape_player_text(self, text: Any) -> PostText:
        return PostText(self._DISCOURSE.sub(r"\\\1", super().escape_player_text(text)))

    def small(self, text: Any) -> PostText:
        """Tiny text: a marker, kept as pbp searches for it (`:` unescaped)."""
        return PostText(
            f"<small>{text if hasattr(text, '__html__') else Markdown.escape(self, text)}</small>"
        )


class BBCode(Dialect):
    """Classic forum BBCode (phpBB, vBulletin, SMF)."""

    name = "bbcode"
    extension = "bbcode"

    def escape(self, text: Any) -> PostText:
        # A tag needs an ASCII bracket; full-width brackets look alike to a reader and
        # are never parsed, so `[url=…]`, `[/quote]` or `[img]` stay literal text.
        line = _plain_line(text)
        return PostText(line.replace("[", "\uff3b").replace("]", "\uff3d"))

    def bold(self, text: Any) -> PostText:
        return PostText(f"[b]{self._safe(text)}[/b]")

    def italic(self, text: Any) -> PostText:
        return PostText(f"[i]{self._safe(text)}[/i]")

    def heading(self, text: Any) -> PostText:
        return PostText(f"[size=150][b]{self._safe(text)}[/b][/size]")

    def item(self, text: Any) -> PostText:
        return PostText(f"[*]{self._safe(text)}")

    def quote(self, text: Any) -> PostText:
        return PostText(f"[quote]{self._safe(text)}[/quote]")

    def rule(self) -> PostText:
        return PostText("[hr][/hr]")

    def small(self, text: Any) -> PostText:
        return PostText(f"[size=1]{self._safe(text)}[/size]")

    def title(self, text: Any) -> str:
        return str(text)

    def list_open(self) -> PostText:
        return PostText("[list]")

    def list_close(self) -> PostText:
        return PostText("[/list]")

    def link(self, text: Any, url: str) -> PostText:
        address = _address(url)
        return (
            PostText(f"[url={address}]{self._safe(text)}[/url]")
            if address
            else PostText(self._safe(text))
        )


def _address(url: str) -> str:
    """A web address as a link may hold it: http(s) only, no character that would end the
    link's markup early."""
    if not re.match(r"^https?://", url):
        return ""
    return re.sub(r"[\s()\[\]<>\"\\]", lambda m: f"%{ord(m.group()):02X}", url)


DIALECTS: dict[str, type[Markdown] | type[BBCode]] = {
    "markdown": Markdown,
    "bbcode": BBCode,
    "discourse": DiscourseMarkdown,
}


def dialect(name: str) -> Dialect:
    """The dialect a game uses (`markdown` for Reddit, `discourse` for Discourse, `bbcode` for
    classic forums)."""
    try:
        return DIALECTS[name.strip().lower()]()
    except KeyError:
        raise ValueError(
            f"Unknown forum dialect {name!r}; choose markdown, bbcode or discourse."
        ) from None
