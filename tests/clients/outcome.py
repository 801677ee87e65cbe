"""Delivering a corpus case through the real CLI and judging what pbp made of it.

A case runs on a fresh copy of its ground: the orders the player sent before (if any) go
in first, as that client's reply; then the reply itself is delivered into
`<data>/mail/inbox/new` and `pbp poll` reads it. What pbp recorded comes from
`pbp orders <game>`, what it answered from the receipt in the player's Maildir folder.

The outcome classes:
- accepted as meant: what pbp records for the player is what the player meant;
- accepted, with a false remark: recorded as meant, but the receipt quotes an order line
  (as one it did not read or take) that the player did not write outside a block, such
  as a line of pbp's own earlier mail that the client copied into the reply;
- refused, true reason: nothing was taken, and the receipt says the true reason (quotes
  what the case's `reason` names); only a case with no reading without guessing can
  reach this class;
- refused, false or unhelpful reason: nothing was taken from a mail that could be read
  as meant, or the receipt does not say the true reason;
- misread: pbp took something from the mail, and what it records is not what the player
  meant.
"""

from __future__ import annotations

import email
import hashlib
import re
from collections import Counter
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Protocol

from pbp.render.languages import languages, translations
from tests.clients.builder import Fill, Player, build_reply
from tests.clients.clients import CLIENTS
from tests.clients.corpus import CASES, Case
from tests.clients.grounds import Ground, Scenario, answer_to, form_mail

ACCEPTED = "accepted as meant"
FALSE_REMARK = "accepted, with a false remark"
REFUSED_TRUE = "refused, true reason"
REFUSED_FALSE = "refused, false or unhelpful reason"
MISREAD = "misread"
CLASSES = (ACCEPTED, FALSE_REMARK, REFUSED_TRUE, REFUSED_FALSE, MISREAD)


@dataclass(frozen=True)
class Outcome:
    case: Case
    verdict: str
    meant: tuple[str, ...]
    before: tuple[str, ...]
    recorded: tuple[str, ...]
    receipt: str  # the receipt's subject and text ("" when pbp did not answer)
    reply: bytes  # the mail delivered

    @property
    def expected(self) -> str:
        return ACCEPTED if self.case.expect == "accepted" else REFUSED_TRUE


def _same(lines: tuple[str, ...], other: tuple[str, ...]) -> bool:
    def canonical(text: str) -> str:
        return " ".join(text.split()).casefold()

    return sorted(map(canonical, lines)) == sorted(map(canonical, other))


# What a receipt that took orders says, in each language pbp writes (the form a reply
# answers may be in any of them).
_ORDERS_RECEIVED = frozenset(translations(code).gettext("Orders received") for code in languages())


def false_remarks(case: Case, receipt: str, orders: tuple[str, ...]) -> list[str]:
    """Order lines the receipt quotes that the player did not write outside a block (the
    orders' keywords, and WITHDRAW's, tell an order line from other quoted text)."""
    keywords = sorted({line.split()[0] for line in orders if line.split()} | {"WITHDRAW"})
    quoted = re.findall(
        rf'"((?:{"|".join(map(re.escape, keywords))})\b[^"\n]*)"', receipt, re.IGNORECASE
    )
    return [line for line in quoted if line not in case.reason]


def judged(
    case: Case,
    meant: tuple[str, ...],
    before: tuple[str, ...],
    recorded: tuple[str, ...],
    receipt: str,
    orders: tuple[str, ...] = (),
) -> str:
    """The outcome class of one reply (see the module's docstring); `orders`: every order
    line of the case, whose keywords tell order lines in the receipt."""
    took_something = recorded != before or any(said in receipt for said in _ORDERS_RECEIVED)
    as_meant = (
        case.expect == "accepted"
        and _same(recorded, meant)
        and (took_something or _same(before, meant))
    )
    if as_meant:
        return FALSE_REMARK if false_remarks(case, receipt, orders) else ACCEPTED
    if took_something:
        return MISREAD
    if case.expect == "refused" and all(reason in receipt for reason in case.reason):
        return REFUSED_TRUE
    return REFUSED_FALSE


class Mailboxes(Protocol):
    """Where a case's mail goes and comes from: a Maildir site (tests/clients/grounds.py),
    or real IMAP mailboxes (tests/clients/test_real_clients.py)."""

    def mails_to(self, address: str) -> list[bytes]: ...
    def deliver(self, data: bytes) -> None: ...
    def poll(self) -> str: ...
    def recorded_orders(self, game: str, player: str) -> tuple[str, ...]: ...


def _reply(
    scenario: Scenario, case: Case, orders: tuple[str, ...], fill: Fill, original: bytes, token: str
) -> bytes:
    return build_reply(
        original,
        CLIENTS[case.client],
        fill,
        orders,
        player=Player(scenario.player, scenario.address),
        game=scenario.game,
        phase=scenario.phase,
        token=token,
    )


def _message_id(data: bytes) -> str:
    return str(email.message_from_bytes(data, policy=policy.default)["Message-ID"])


def run_on_ground(ground: Ground, case: Case, root: Path) -> Outcome:
    """One case on a fresh copy of its ground under `root`."""
    return run_case(ground.site(root), ground.scenario, case)


def run_case(site: Mailboxes, scenario: Scenario, case: Case) -> Outcome:
    """One case, start to end: the earlier orders (if any), the reply, and its outcome."""
    token = hashlib.sha256(case.id.encode()).hexdigest()[:20].upper()
    original = form_mail(site.mails_to(scenario.address), scenario.game, scenario.phase)
    if case.earlier:
        earlier = _reply(scenario, case, case.earlier, Fill("strip", "top"), original, token + "E")
        site.deliver(earlier)
        site.poll()
        if not _same(site.recorded_orders(scenario.game, scenario.player), case.earlier):
            raise AssertionError(f"{case.id}: the earlier orders {case.earlier} were not accepted")
        answer_to_earlier = answer_to(site.mails_to(scenario.address), _message_id(earlier))
        if answer_to_earlier is None:
            raise AssertionError(f"{case.id}: pbp did not answer the earlier orders")
        original = earlier if case.reply_to == "own" else answer_to_earlier
    before = site.recorded_orders(scenario.game, scenario.player)
    meant = scenario.orders if case.meant is None else case.meant
    written = meant if case.written is None else case.written
    reply = _reply(scenario, case, written, case.fill, original, token)
    site.deliver(reply)
    site.poll()
    answered = answer_to(site.mails_to(scenario.address), _message_id(reply))
    answer = email.message_from_bytes(answered, policy=policy.default) if answered else None
    body = answer.get_body(("plain",)) if isinstance(answer, EmailMessage) else None
    receipt = f"{answer['Subject']}\n{body.get_content()}" if answer and body else ""
    recorded = site.recorded_orders(scenario.game, scenario.player)
    verdict = judged(
        case, meant, before, recorded, receipt, meant + written + case.earlier + scenario.orders
    )
    return Outcome(case, verdict, meant, before, recorded, receipt, reply)


def run_corpus(
    grounds: dict[str, Ground], root: Path, cases: tuple[Case, ...] = CASES
) -> list[Outcome]:
    return [
        run_on_ground(grounds[case.scenario], case, root / f"case-{index:03d}")
        for index, case in enumerate(cases)
    ]


def table(outcomes: list[Outcome], by: str = "client") -> str:
    """A Markdown table of outcome counts per client (or per fill style)."""
    rows: dict[str, Counter[str]] = {}
    for outcome in outcomes:
        key = CLIENTS[outcome.case.client].label if by == "client" else outcome.case.style
        rows.setdefault(key, Counter())[outcome.verdict] += 1
    total: Counter[str] = Counter(outcome.verdict for outcome in outcomes)
    head = (
        "| "
        + ("client" if by == "client" else "fill style")
        + " | replies | "
        + " | ".join(CLASSES)
        + " |"
    )
    lines = [head, "|" + " --- |" * (len(CLASSES) + 2)]
    for key, counts in [*rows.items(), ("**all**", total)]:
        lines.append(
            f"| {key} | {sum(counts.values())} | "
            + " | ".join(str(counts[c]) for c in CLASSES)
            + " |"
        )
    return "\n".join(lines)


def failures(outcomes: list[Outcome]) -> list[Outcome]:
    return [outcome for outcome in outcomes if outcome.verdict != outcome.expected]
