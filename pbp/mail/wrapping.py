"""Every line of a mail pbp sends fits in 72 characters (docs/design.md: Order mail format —
mail is read on phones and answered from programs that wrap).

Gmail and Outlook in plain-text mode break the lines of a reply at about 76 columns, and a
quote adds two more per level, so a longer line of pbp's comes back in pieces: inside an
order block, a piece is a line of its own. Templates keep their lines short; what they
cannot keep short (a list of names, a player's own words quoted back, an event sentence)
is wrapped here, at word breaks, as the mail's prose is:

- a line is continued at its own indentation, past a list's mark (`- `, HELP's `>> `);
- a `#` line inside an order or message block is continued as a `#` line, so the block
  still reads the same (its other lines are the form's own and are never wrapped);
- a word longer than a line is cut, except a web address, which is left whole.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace

from pbp.ports import RenderedMail

WIDTH = 72
# What a wrapped line's next lines are indented past: its indentation and a list's mark
# (`- `, `* `, `1. `, HELP's `>> `), or inside a block a comment's `#`.
_LEAD = re.compile(r"^(\s*)(-\s+|\*\s+|\d+[.)]\s+|>>\s+|#\s*)?")
_BEGIN = re.compile(r"^\s*BEGIN\s+(ORDERS|MESSAGE)\b", re.IGNORECASE)
_END = re.compile(r"^\s*END\s+(ORDERS|MESSAGE)\s*$", re.IGNORECASE)


def wrap_body(text: str) -> str:
    """`text` with every line longer than `WIDTH` wrapped (see the module's docstring)."""
    if all(len(line) <= WIDTH for line in text.split("\n")):
        return text  # the common case, at the cost of one look at each line
    out: list[str] = []
    in_block = False
    for line in text.split("\n"):
        if _BEGIN.match(line):
            in_block = True
        elif _END.match(line):
            in_block = False
        if len(line) <= WIDTH or (in_block and not line.lstrip().startswith("#")):
            out.append(line)
        else:
            out.extend(_wrapped(line))
    return "\n".join(out)


def wrap_mail(mail: RenderedMail) -> RenderedMail:
    """`mail` with its body wrapped as it will be sent, for an outbox row that keeps the
    text its reader gets."""
    return replace(mail, body=wrap_body(mail.body))


def _wrapped(line: str) -> list[str]:
    match = _LEAD.match(line)
    assert match is not None  # every part of the pattern may match nothing
    indent, mark = match.group(1), match.group(2) or ""
    if mark.startswith("#"):
        first, rest = indent + mark, indent + "#" + " " * max(len(mark) + 1, 4)
    else:
        first, rest = indent + mark, indent + " " * len(mark)
    if len(rest) > WIDTH // 2:  # a deep indentation would leave no room for words
        first = rest = ""
    content = line[match.end() :] if first else line
    return textwrap.wrap(
        content,
        width=WIDTH,
        initial_indent=first,
        subsequent_indent=rest,
        break_long_words="://" not in content,
        break_on_hyphens=False,
    ) or [line[:WIDTH]]
