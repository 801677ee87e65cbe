"""How deep each line of a reply is quoted, as mail programs quote (docs/design.md: Order
mail format — replies as real clients send them).

Most programs prefix the mail they answer with `>` per level (`> `, `>> `, `> > `). Outlook
and the webmails modelled on it do not: they copy the old mail below a header block of its
own (`From: … Sent: … To: … Subject: …`, in the reader's language) or below a separator
(`-----Original Message-----`, a rule of underscores), unquoted. Yahoo copies it unquoted
below its attribution line (`On …, pbp <pbp@…> wrote:`). Everything from such a header on
is history all the same, so it is read here one level deeper than it is written: a block
in it is never taken for the player's new text, nor a line of pbp's own mail for a line the
player wrote.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_QUOTE_PREFIX = re.compile(r"^(?:[ \t]*>)+[ \t]?")
# A separator line a mail program writes above a copied mail: a phrase between runs of
# dashes (`-----Original Message-----`, `-------- Message d'origine --------`, Gmail's
# `---------- Forwarded message ---------`), or a long rule of underscores (Outlook on the web).
_SEPARATOR = re.compile(r"^(?:-{3,}\s*\S[^-]{2,60}?\s*-{3,}|_{20,})$")
# The first field of a copied mail's header block, in the languages Outlook writes it in.
_FROM_WORDS = (
    "from",
    "von",
    "de",
    "da",
    "van",
    "fra",
    "från",
    "od",
    "от",
    "lähettäjä",
    "feladó",
    "kimden",
    "apó",
    "差出人",
    "发件人",
    "寄件者",
    "보낸 사람",
    "من",
    "מאת",
    "dari",
    "từ",
    "จาก",
    "expeditor",
)
# One look at the whole text for what a copied mail must start with: a From field or a separator.
_MAY_HOLD_A_COPY = re.compile(
    r"^[ \t]*(?:\*?(?:" + "|".join(map(re.escape, _FROM_WORDS)) + r")\*?\s?[:：]|-{3,}|_{20,})",
    re.IGNORECASE | re.MULTILINE,
)
# An attribution line: it names the writer's address or says that they wrote, and ends in a colon.
_WROTE = (
    "wrote",
    "writes",
    "écrit",
    "schrieb",
    "escribió",
    "escreveu",
    "scritto",
    "schreef",
    "skrev",
    "kirjoitti",
    "napisał",
    "пишет",
    "написал",
    "написала",
    "写道",
    "寫道",
    "のメッセージ",
    "작성",
)
_ATTRIBUTION = re.compile(
    r"(?:<[^<>\s]+@[^<>\s]+>|\b(?:" + "|".join(map(re.escape, _WROTE)) + r")).{0,40}[:：]\s*$",
    re.IGNORECASE | re.MULTILINE,
)
_HEADER_FIELD = re.compile(r"^\*?([^\W\d_][^:：]{0,24}?)\*?\s?[:：]\s*\S")
_FIELDS_AFTER_FROM = 2  # a header block: From and at least two more fields (Sent, To, Subject …)
_FIELD_WINDOW = 6  # looked for in the lines that follow it


class QuotedLine(NamedTuple):
    """One line of text split into its quote depth (number of `>`) and its content (a
    tuple: every line of every mail becomes one, and a frozen dataclass is slow to make)."""

    depth: int
    content: str


def split_quote(line: str) -> QuotedLine:
    if ">" not in line:  # most lines: no quote prefix to look for
        return QuotedLine(0, line.strip())
    match = _QUOTE_PREFIX.match(line)
    if not match:
        return QuotedLine(0, line.strip())
    return QuotedLine(match.group(0).count(">"), line[match.end() :].strip())


def _header_field(content: str) -> str | None:
    match = _HEADER_FIELD.match(content)
    return match.group(1).strip().lower() if match else None


def _opens_copied_mail(lines: list[QuotedLine], index: int) -> bool:
    """A separator line, the From line of a header block (From and two more fields within
    the next few lines), or an attribution line followed by unquoted text, at the depth of
    the text around it."""
    content = lines[index].content
    if _SEPARATOR.match(content):
        return True
    if _ATTRIBUTION.search(content):
        written = next((line for line in lines[index + 1 : index + 4] if line.content), None)
        return written is not None and written.depth == 0
    if _header_field(content) not in _FROM_WORDS:
        return False
    depth = lines[index].depth
    fields = [
        line
        for line in lines[index + 1 : index + 1 + _FIELD_WINDOW]
        if line.depth == depth and line.content
    ]
    return (
        sum(1 for line in fields[: _FIELDS_AFTER_FROM + 2] if _header_field(line.content))
        >= _FIELDS_AFTER_FROM
    )


def quote_lines(text: str) -> list[QuotedLine]:
    """The lines of `text` with their quote depth; from the first unquoted header block or
    separator of a copied mail on, every line counts one level deeper (see the module's
    docstring)."""
    lines = [split_quote(line) for line in text.split("\n")]
    if not _MAY_HOLD_A_COPY.search(text) and not _ATTRIBUTION.search(text):
        return lines  # most replies: no header field of a copied mail, no separator anywhere
    for index, line in enumerate(lines):
        if line.depth == 0 and _opens_copied_mail(lines, index):
            return lines[:index] + [
                QuotedLine(line.depth + 1, line.content) for line in lines[index:]
            ]
    return lines
