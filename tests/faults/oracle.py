"""The one oracle run after every fault case (and by the fuzz and crash runs):

- every injected mail is filed exactly once, in `processed`, `rejected` or `quarantine`
  on the IMAP server, and the INBOX is empty;
- no token (a player's or the host's) and no line private to one player's welcome (their
  role) appears in mail to anyone else;
- pbp mailed only roster addresses and the host (every RCPT TO the SMTP server saw);
- `pbp status` runs and exits 0;
- the game changed only as the case says (stored orders of the named players; nothing
  else of the game's state).

`Watch` takes the "before" picture; `Watch.check()` compares and returns what the case
produced (new order rows, and the mail each person got) for the case's own asserts;
`run()` is one whole case: inject, `pbp poll`, check.
"""

from __future__ import annotations

import email
from collections import Counter
from dataclasses import dataclass, field
from email import policy

from tests.faults.site import NAMES, Site, full_text
from tests.fixtures.text import flat

FOLDERS = ("processed", "rejected", "quarantine")
# What may change in the game's record while mail is ingested (counters of the desk).
UNCHANGING = (
    "id",
    "ruleset",
    "state",
    "phase_id",
    "resolved",
    "tokens",
    "roster",
    "deadline",
    "result",
)
PRIVATE_LINE_LENGTH = 12  # shorter lines ("Hello,") are not facts about a player


@dataclass
class Outcome:
    orders: list[dict]  # order rows new in this case
    mail: dict[str, list]  # name (or "host") -> parsed messages pbp sent them in this case
    filed: dict[bytes, str]  # injected mail -> the folder it was filed in


@dataclass
class Totals:
    """What benchmarks/faults.py prints."""

    cases: int = 0
    injected: int = 0
    lost: int = 0
    duplicated: int = 0
    leaked: int = 0
    deaths: int = 0
    problems: list[str] = field(default_factory=list)


TOTALS = Totals()


def _normal(data: bytes) -> bytes:
    """As IMAP serves it: Dovecot writes NUL bytes as 0x80 (a literal cannot hold NUL)."""
    return data.replace(b"\r\n", b"\n").replace(b"\0", b"\x80")


def _is_copy(stored: bytes, injected: bytes) -> bool:
    """Dovecot serves a message as delivered; LMTP puts its trace headers first."""
    stored, injected = _normal(stored), _normal(injected)
    if stored == injected:
        return True
    return bool(injected) and stored.endswith(injected) and stored.startswith(b"Return-Path:")


class Watch:
    def __init__(self, site: Site) -> None:
        self.site = site
        self.seen: dict = getattr(site, "_oracle_seen", {})
        site._oracle_seen = self.seen
        self.sent_mark = site.sent_mark()
        self.record = site.record()
        self.orders = site.orders()

    # ------------------------------------------------------------------ filing
    def _filing(self, injected: list[bytes], problems: list[str]) -> dict[bytes, str]:
        left = self.site.inbox_left()
        if left:
            TOTALS.lost += left
            problems.append(f"{left} mails were left in the INBOX")
        stored = {folder: self.site.filed_since(folder, self.seen) for folder in FOLDERS}
        filed: dict[bytes, str] = {}
        copies = Counter(injected)  # the same bytes may be injected more than once
        for number, data in enumerate(injected):
            if data in filed:
                continue
            places = [
                folder for folder, items in stored.items() for item in items if _is_copy(item, data)
            ]
            if len(places) < copies[data]:
                TOTALS.lost += copies[data] - len(places)
                problems.append(f"injected mail {number} was not filed")
            elif len(places) > copies[data]:
                TOTALS.duplicated += len(places) - copies[data]
                problems.append(f"injected mail {number} was filed {len(places)} times: {places}")
            else:
                filed[data] = places[0]
        extra = sum(len(items) for items in stored.values()) - len(injected)
        if extra > 0:
            TOTALS.duplicated += extra
            problems.append(f"{extra} more messages were filed than were injected")
        return filed

    # ------------------------------------------------------------------ secrets and recipients
    def _mail(self, problems: list[str]) -> dict[str, list]:
        site = self.site
        owners = {address: name for name, address in site.players.items()}
        owners[site.host] = "host"
        allowed = set(owners)
        for address in site.attempted_since(self.sent_mark):
            if address not in allowed:
                TOTALS.leaked += 1
                problems.append(
                    f"pbp tried to mail {address}, who is neither on the roster nor the host"
                )
        record = site.record()
        secrets = dict(record["tokens"])
        if record.get("host_token"):
            secrets["host"] = record["host_token"]
        private = _private_lines(site)
        got: dict[str, list] = {name: [] for name in (*NAMES, "host")}
        for recipients, data in site.sent_since(self.sent_mark):
            message = email.message_from_bytes(data, policy=policy.default)
            text = full_text(message) + data.decode("utf-8", "replace")
            lines = {line.strip() for line in text.splitlines()}
            for recipient in recipients:
                owner = owners.get(recipient.lower())
                if owner is None:
                    continue
                got[owner].append(message)
                for name, secret in secrets.items():
                    if name != owner and secret in text:
                        TOTALS.leaked += 1
                        problems.append(f"{name}'s token was mailed to {owner}")
                for name, private_lines in private.items():
                    for line in private_lines & lines:
                        if name != owner:
                            TOTALS.leaked += 1
                            problems.append(
                                f"{line!r}, private to {name}'s welcome, was mailed to {owner}"
                            )
        return got

    # ------------------------------------------------------------------ the game
    def _game(self, may_change: set[str], problems: list[str]) -> list[dict]:
        record = self.site.record()
        for key in UNCHANGING:
            if record.get(key) != self.record.get(key):
                problems.append(f"the game's {key} changed")
        after = self.site.orders()
        new = [row for row in after if row not in self.orders]
        gone = [row for row in self.orders if row not in after]
        touched = {row.get("player") for row in new + gone}
        if not touched <= may_change:
            problems.append(f"orders changed for {sorted(touched - may_change)}")
        return new

    def check(
        self, injected: list[bytes], may_change: set[str] | frozenset = frozenset()
    ) -> Outcome:
        problems: list[str] = []
        filed = self._filing(injected, problems)
        got = self._mail(problems)
        orders = self._game(set(may_change), problems)
        if self.site.cli("status") != 0:
            problems.append("pbp status failed")
        TOTALS.cases += 1
        TOTALS.injected += len(injected)
        TOTALS.problems += problems
        assert not problems, problems
        return Outcome(orders, got, filed)


def _private_lines(site: Site) -> dict[str, set[str]]:
    cached = getattr(site, "_private_lines", None)
    if cached is None:
        counts = Counter(
            line.strip() for text in site.welcome.values() for line in set(text.splitlines())
        )
        cached = {
            name: {
                line.strip()
                for line in text.splitlines()
                if len(line.strip()) >= PRIVATE_LINE_LENGTH and counts[line.strip()] == 1
            }
            for name, text in site.welcome.items()
        }
        site._private_lines = cached
    return cached


def run(
    site: Site, *mails: bytes, may_change=frozenset(), envelope_from: str | None = None
) -> Outcome:
    """One case: inject the mails, run `pbp poll` (a poll that fails or raises is a daemon
    death), then the oracle."""
    watch = Watch(site)
    site.inject(*mails, envelope_from=envelope_from)
    try:
        site.poll()
    except BaseException:
        TOTALS.deaths += 1
        raise
    return watch.check(list(mails), may_change)


def answered(outcome: Outcome) -> list[str]:
    """Who got mail from pbp in the case."""
    return [name for name, mails in outcome.mail.items() if mails]


def text_of(message) -> str:
    body = message.get_body(("plain",))
    return body.get_content() if body is not None else ""


def prose_of(message) -> str:
    """A mail's text with its lines joined (pbp wraps its prose at 72 columns)."""
    return flat(text_of(message))


def subject_of(message) -> str:
    return str(message["Subject"] or "")
