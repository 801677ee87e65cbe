"""An order a post writes mid-line (docs/design.md: Public posts — votes in the thread):
"I agree with Alice. **Nominate Bruno**" is not counted, since an order is a line of its
own, but it is the most common mistake on a forum, so the host and (with
`thread_receipts`) the player are told. A mention is an order word after a sentence's
end, after a bold mark, or in capitals, followed by a choice; plain talk ("I will vote
Bruno tomorrow") is none."""

from __future__ import annotations

import re
from typing import Collection

from pbp.forum.thread.vote_lines import MAX_LINE, own_lines

_SENTENCE_END = (".", "!", "?", ";", ":", "**", "__", "[b]", "<b>", "<strong>")
_MARKUP = re.compile(r"\*\*|__|\[/?b\]|</?b>|</?strong>", re.IGNORECASE)


def mentioned(text: str, words: Collection[str]) -> str:
    """The first order (`NOMINATE Bruno`) the post's own lines write mid-line, or ""."""
    lowered = text.lower()
    wanted = [word for word in words if word.lower() in lowered]
    if not wanted:
        return ""
    alternatives = "|".join(re.escape(word) for word in sorted(wanted, key=len, reverse=True))
    pattern = re.compile(
        rf"\b({alternatives})\b(?:\*\*|__|\[/b\]|</b>|</strong>)?\s*:?\s+([^\s.,!?;:]+)",
        re.IGNORECASE,
    )
    for _, own in own_lines(text):
        line = own[: MAX_LINE * 2]
        for match in pattern.finditer(line):
            before = line[: match.start()].rstrip()
            choice = _MARKUP.sub("", match.group(2))
            if before and choice and (before.endswith(_SENTENCE_END) or match.group(1).isupper()):
                return f"{match.group(1).upper()} {choice}"
    return ""
