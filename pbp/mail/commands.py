"""Player commands in a mail without a block (docs/design.md: Order mail format — HELP, FORM,
STATUS, `LANGUAGE <code>` (Each reader's language); Public posts — the host's `APPROVE <game>
<phase>`).
"""

from __future__ import annotations

import re

from pbp.mail.command_names import names_of
from pbp.mail.quoting import split_quote

_APPROVE = re.compile(r"^APPROVE\s+(\S+)\s+(\S+)(?:\s+(\S+))?\s*$", re.IGNORECASE)
_LANGUAGE = re.compile(
    rf"^(?:LANG(?:UAGE)?|{'|'.join(names_of('LANGUAGE')[1:])})(?:\s+([A-Za-z_]{{1,12}}))?\s*$",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"^TOKEN\s*:\s*(.*)$", re.IGNORECASE)
_COMMAND_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_SUBJECT_PREFIX = re.compile(r"^\s*((re|aw|sv|fwd?|tr|wg)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


def find_command(body: str, subject: str) -> str | None:
    """A player command (docs/design.md: Order mail format — HELP, FORM, STATUS, and the host's
    `APPROVE <game> <phase>`): the first non-empty unquoted line of the body, or the
    subject when the body has none. Returns the upper-cased word (unknown words too, so
    the desk can answer with HELP), or None when there is nothing at all."""
    for line in body.split("\n"):
        quoted = split_quote(line)
        if quoted.depth == 0 and quoted.content:
            return _command_of(quoted.content)
        if quoted.depth > 0:
            # The first quoted text starts the quoted reply: nothing the player wrote follows.
            break
    subject_text = _SUBJECT_PREFIX.sub("", subject).strip()
    return _command_of(subject_text) if subject_text else None


def _command_of(line: str) -> str | None:
    approve = _APPROVE.match(line)
    if approve:
        return " ".join(["APPROVE", *(part for part in approve.groups() if part)])
    language = _LANGUAGE.match(line)
    if language:  # `LANGUAGE de`: the code as given, lower-cased; bare `LANGUAGE` lists them
        return " ".join(["LANGUAGE", *([language.group(1).lower()] if language.group(1) else [])])
    word = _COMMAND_WORD.match(line)
    if word:
        return word.group(0).upper()
    first = line.split()[0] if line.split() else ""
    return first.upper() or None


def find_approval(body: str) -> str | None:
    """The host's `APPROVE <game> <phase>` (docs/design.md: Public posts; "approve it by
    replying `APPROVE <game> <phase>` with the host token"): the first such unquoted line
    anywhere in the body, as `APPROVE <game> <phase> <token>`. The token is the line's third
    word, else the value of the first unquoted `TOKEN:` line; without either it is `APPROVE
    <game> <phase>`. Quoted text is the mail being replied to, never the host's own words."""
    if "approve" not in body.lower():
        return None  # the common case, without a look at every line
    approval, token = None, None
    for line in body.split("\n"):
        quoted = split_quote(line)
        if quoted.depth:
            continue
        match = _APPROVE.match(quoted.content)
        if match and approval is None:
            approval = match
        token_line = _TOKEN.match(quoted.content)
        if token_line and token is None and token_line.group(1).strip():
            token = token_line.group(1).strip()
    if approval is None:
        return None
    game, phase, inline = approval.groups()
    named: str | None = inline or token
    return " ".join(["APPROVE", game, phase, *([named] if named else [])])
