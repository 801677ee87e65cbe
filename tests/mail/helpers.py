"""Small helpers shared by the mail tests: crafted messages and an in-memory desk behind
the `OrderDesk` port (pbp.ports)."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Iterator

from pbp.ports import InboundMail, Outcome

MODERATOR = "moderator@pbp.test"


def crafted(
    sender: str,
    body: str,
    subject: str = "orders",
    headers: str = "",
    message_id: str = "<c1@example.org>",
) -> bytes:
    text = f"From: {sender}\nTo: {MODERATOR}\nSubject: {subject}\nMessage-ID: {message_id}\n{headers}\n{body}"
    return text.replace("\n", "\r\n").encode("utf-8")


def order_mail(
    sender: str,
    orders: str = "MOVE 1A",
    token: str = "tok",
    game: str = "g1",
    phase: str = "T1-movement",
    **options,
) -> bytes:
    body = f"BEGIN ORDERS {game} {phase}\nTOKEN: {token}\n{orders}\nEND ORDERS\n"
    return crafted(sender, body, **options)


class FakeDesk:
    """Judges a mail by whether it has a block; remembers what it handled by key and by
    SHA-256 (docs/design.md: Reliability rules, Ingest).
    With `state_file`, it persists like the real desk so a restarted process sees it.
    Every `receive` is its own commit, so its `batch` gathers nothing: the tests that
    follow mail one by one poll it with `together=False`."""

    def __init__(self, state_file: Path | None = None, poison: str | None = None) -> None:
        self.state_file = state_file
        self.poison = poison
        self.received: list[InboundMail] = []
        self.readied = 0  # calls of get_ready
        self.by_key: dict[str, Outcome] = {}
        self.by_sha: dict[str, Outcome] = {}
        if state_file is not None and state_file.exists():
            state = json.loads(state_file.read_text())
            self.by_key, self.by_sha = state["by_key"], state["by_sha"]

    def receive(self, mail: InboundMail) -> Outcome:
        earlier = self.already_handled(mail.key, mail.sha256)
        if earlier is not None:
            return earlier
        if self.poison and self.poison in mail.subject:
            raise RuntimeError("the desk choked on this mail")
        self.received.append(mail)
        outcome: Outcome = (
            "processed" if any(block.has_orders for block in mail.blocks) else "rejected"
        )
        self.by_key[mail.key] = outcome
        self.by_sha[mail.sha256] = outcome
        if self.state_file is not None:
            temporary = self.state_file.with_suffix(".tmp")
            temporary.write_text(json.dumps({"by_key": self.by_key, "by_sha": self.by_sha}))
            temporary.replace(self.state_file)
        return outcome

    def already_handled(self, key: str, sha256: str) -> Outcome | None:
        return self.by_key.get(key) or self.by_sha.get(sha256)

    def get_ready(self) -> None:
        self.readied += 1

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        yield
