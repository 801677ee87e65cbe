"""A post's sentences in the forum's language (docs/design.md: Posts and the rulesets'
wording). A post template words a sentence as one message, `_("%(name)s was lynched.",
name=fmt.bold(x))`; Jinja's own gettext would mark the translation as finished HTML and
escape its values for HTML, while a post is Markdown or BBCode. Here the translated words
are escaped for the dialect piece by piece, exactly as `fmt.join` escapes its parts, and
each value goes in as `fmt.join` would put it: finished markup as is, anything else
escaped."""

from __future__ import annotations

import gettext
import re
from typing import Any, Callable

from pbp.forum.publishing.dialects import Dialect, PostText

_PLACEHOLDER = re.compile(r"%\((\w+)\)([sd])|%%")


def _filled(dialect: Dialect, message: str, values: dict[str, Any]) -> PostText:
    pieces: list[str] = []
    start = 0
    for found in _PLACEHOLDER.finditer(message):
        pieces.append(
            dialect.escape(message[start : found.start()]) if found.start() > start else ""
        )
        if found.group(0) == "%%":
            pieces.append(dialect.escape("%"))
        else:
            value = values[found.group(1)]
            pieces.append(dialect.join(str(int(value)) if found.group(2) == "d" else value))
        start = found.end()
    if start < len(message):
        pieces.append(dialect.escape(message[start:]))
    return PostText("".join(pieces))


def post_gettext(
    dialect: Dialect, translations: gettext.NullTranslations
) -> dict[str, Callable[..., PostText]]:
    """`_`, `gettext` and `ngettext` for a post template: the message translated, its
    `%(name)s` values filled in, all escaped for `dialect` (ngettext passes `num`)."""

    def translate(message: str, **values: Any) -> PostText:
        return _filled(dialect, translations.gettext(message), values)

    def translate_plural(singular: str, plural: str, num: int, **values: Any) -> PostText:
        return _filled(
            dialect, translations.ngettext(singular, plural, num), {"num": num, **values}
        )

    return {"_": translate, "gettext": translate, "ngettext": translate_plural}
