"""How players fill in pbp's order form, located by pattern (never by its exact text, so
the same fills work on every version of the form).

An order's template is a comment line that starts with the order's keyword, such as
`# NOMINATE <player>`; the form's instruction is to delete the `#` and put one's choice in
place of the `<…>`. The edits a player makes to the form:

- "uncomment": the template line becomes the order; every other `#` line is kept;
- "literal": the instruction followed to the letter: the `#` deleted and the choice put in
  place of the `<…>`, so whatever else the template line held (a hint in brackets) stays
  on it; every other `#` line is kept;
- "strip": delete every `#` line (and any order written before) and write the orders
  after the TOKEN line;
- "typed": keep every line and type the orders on new lines just above END ORDERS.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

BEGIN = re.compile(r"^BEGIN\s+ORDERS\s+(\S+)\s+(\S+)\s*$", re.IGNORECASE)
END = re.compile(r"^END\s+ORDERS\s*$", re.IGNORECASE)
TOKEN = re.compile(r"^TOKEN\s*:", re.IGNORECASE)
HINT_ON_TEMPLATE = re.compile(r"\s{2,}\(.*\)\s*$")  # `# NOMINATE <player>  (a hint)`
EDITS = ("uncomment", "literal", "strip", "typed")


def form_span(texts: Sequence[str], game: str, phase: str) -> tuple[int, int]:
    """The indexes of the BEGIN and END lines of the first order form for this game and
    phase among `texts` (lines without their quote prefix): in pbp's mail its one form, in
    the player's own earlier mail the block they wrote."""
    begin = None
    for index, text in enumerate(texts):
        match = BEGIN.match(text.strip())
        if match and match.group(1) == game and match.group(2) == phase:
            begin = index
        elif begin is not None and END.match(text.strip()):
            return begin, index
    raise LookupError(f"no order form for {game} {phase} in the mail")


def template_index(block: Sequence[str], order: str, taken: set[int]) -> int | None:
    """The comment line that is `order`'s template: it starts with the order's keyword;
    of several, the one that also names the order's second word (`USE HISTORY`)."""
    words = order.split()
    keyword = re.compile(rf"^#\s*{re.escape(words[0])}\b", re.IGNORECASE)
    found = [
        index
        for index, text in enumerate(block)
        if keyword.match(text.strip()) and index not in taken
    ]
    if len(words) > 1:
        second = re.compile(rf"^#\s*{re.escape(words[0])}\s+{re.escape(words[1])}\b", re.IGNORECASE)
        better = [index for index in found if second.match(block[index].strip())]
        found = better or found
    return found[0] if found else None


def filled(block: Sequence[str], orders: Sequence[str], edit: str) -> list[str]:
    """The form's lines (BEGIN … END) as the player leaves them after writing `orders`."""
    lines = list(block)
    if edit in ("uncomment", "literal"):
        taken: set[int] = set()
        extra = []
        for order in orders:
            index = template_index(lines, order, taken)
            if index is None:
                extra.append(order)
                continue
            taken.add(index)
            hint = HINT_ON_TEMPLATE.search(lines[index]) if edit == "literal" else None
            lines[index] = order + (hint.group(0).rstrip() if hint else "")
        return lines[:-1] + extra + lines[-1:]
    if edit == "strip":
        token = next((i for i, text in enumerate(lines) if TOKEN.match(text.strip())), 0)
        return lines[: token + 1] + list(orders) + lines[-1:]
    if edit == "typed":
        return lines[:-1] + list(orders) + lines[-1:]
    raise ValueError(f"no edit {edit!r}")
