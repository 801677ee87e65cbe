"""What in served HTML could run or load something: read by a real HTML parser, so a
test asserts on elements and attributes rather than on text (escaped markup is text)."""

from __future__ import annotations

from html.parser import HTMLParser

# Elements that run or frame something whatever their attributes; any other element is
# judged by its attributes (an event handler, a style, an address of an unsafe scheme).
ACTIVE_TAGS = {"script", "iframe", "frame", "object", "embed", "applet", "base", "style"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "srcset"}
SAFE_SCHEMES = ("http://", "https://", "mailto:", "file://", "/", "#", "?", "data:image/")


class _Active(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ACTIVE_TAGS:
            self.found.append(f"<{tag}>")
        if tag == "meta" and any(name == "http-equiv" for name, _ in attrs):
            self.found.append("<meta http-equiv>")
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.found.append(f"{tag} {name}={value!r}")
            if (
                name in URL_ATTRIBUTES
                and value is not None
                and not value.strip().lower().startswith(SAFE_SCHEMES)
            ):
                self.found.append(f"{tag} {name}={value!r}")


def active_parts(html: str, allowed: set[str] = frozenset()) -> list[str]:
    """Every element or attribute of `html` that could run script, load something from
    an unsafe address or style the page (but those in `allowed`, e.g. the page's own
    `<script>`)."""
    parser = _Active()
    parser.feed(html)
    return [part for part in parser.found if part not in allowed]
