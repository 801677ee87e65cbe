"""Player text on the host's terminal (docs/design.md: Hostile input — "Player text shown to
the host on a terminal has control characters made visible").

Anonymous messages, unknown senders' subjects and names, order text: anything a player
wrote may hold escape sequences that would clear the host's screen, retitle the window
or hide lines. `visible` shows each control character as its Python escape (ESC as
`\\x1b`); newlines and tabs stay, since they lay out pbp's own output. The command line
sends all its standard output through `VisibleText`, so no command can print player text
raw, whichever command it is.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

# C0 and C1 controls but newline and tab, DEL, and the format characters that reorder or
# hide text on a terminal (zero widths, bidi embeddings and isolates, line separators, BOM).
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]"
)


def visible(text: str) -> str:
    """`text` with every control character written out as an escape, e.g. ESC as `\\x1b`."""
    return _INVISIBLE.sub(
        lambda found: found.group().encode("unicode_escape").decode("ascii"), text
    )


class VisibleText:
    """A text stream that writes everything through `visible`."""

    def __init__(self, stream: TextIO):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(visible(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)
