"""How much of one mail pbp reads and repeats (docs/design.md: Hostile input — a reply is
never much larger than what caused it). Every mail is hostile input: a reply lists at most
a few problems and quotes at most a short stretch of each input line, so a reply (and the
outbox row that stores it, with its References) stays near the size of a normal receipt
whatever the mail holds."""

from __future__ import annotations

from typing import Sequence

MAX_BLOCKS_PER_MAIL = 5  # order blocks read from one mail; the rest are counted, not read
MAX_PROBLEMS_LISTED = 10  # problems a reply lists; the rest are counted ("and N more problems")
MAX_QUOTED_CHARS = 60  # characters of one input line quoted back
MAX_PROBLEM_CHARS = 240  # one problem's sentence, whatever it quotes
MAX_REFERENCES = 10  # Message-IDs of a thread kept for a reply's References
MAX_MESSAGE_CHARS = 5_000  # text of one message block; a longer one is refused whole, never cut
ELLIPSIS = "…"


def quoted(text: str, limit: int = MAX_QUOTED_CHARS) -> str:
    """`text` as a reply may quote it: at most `limit` characters, cut with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + ELLIPSIS


def listed(problems: Sequence[str], limit: int = MAX_PROBLEMS_LISTED) -> list[str]:
    """The problems a reply lists: the first `limit`, each cut to a bounded sentence, then
    one line counting the rest."""
    shown = [quoted(problem, MAX_PROBLEM_CHARS) for problem in problems[:limit]]
    rest = len(problems) - limit
    if rest > 0:
        shown.append(f"and {rest:,} more problem{'s' if rest != 1 else ''}")
    return shown
