"""What pbp answers a mail, as values (docs/design.md: Extension points — re-theming).

The code that judges a mail decides; it never words. It returns verdicts: an `Accepted`,
a `Refused` or a `Note` (something the reply tells besides, such as which orders still
stand), each naming its `kind` and carrying the facts a person needs, not the sentence.
The macro of that kind in `templates/mail/_verdicts.j2` words it, so a host who re-themes
pbp finds every receipt, refusal and answer there. A template reads a fact as an
attribute (`verdict.game_id`).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping


@dataclass(frozen=True, init=False)
class Verdict:
    """One verdict: its kind (a macro of templates/mail/_verdicts.j2) and its facts."""

    kind: str
    facts: Mapping[str, Any]

    def __init__(self, kind: str, /, **facts: Any) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "facts", MappingProxyType(facts))

    def __getitem__(self, name: str) -> Any:
        """A fact: what Jinja reads for `verdict.name` (a verdict has no such attribute)."""
        return self.facts[name]


class Accepted(Verdict):
    """What the mail asked for was done: orders taken, a message sent, a request noted."""


class Refused(Verdict):
    """What the mail asked for was not done, and why: nothing changed because of it."""


class Note(Verdict):
    """Something a reply tells besides what was accepted or refused."""


def error_facts(error: Exception) -> dict[str, Any]:
    """A refused request's error as a verdict's facts, for its reader's language
    (docs/design.md: Languages — the host's mail and the last English words): `error`, its
    sentence as a Wording (pbp.errors.UserError) for the filter `refusal_line`; for orders
    that do not read (pbp.host.orders.OrdersRefused) `error` is the head and `orders` the
    `bad_orders` verdict whose problems the filter `refusal_lines` words."""
    orders = getattr(error, "verdict", None)
    if orders is not None:
        return {"error": getattr(error, "head"), "orders": orders}
    return {"error": getattr(error, "wording", str(error))}
