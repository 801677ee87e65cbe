"""The ground the fault suite attacks: one Infiltration game run by the real CLI (its entry
function, `pbp.cli.main`, or `python3 -m pbp`) over the session's real Dovecot and aiosmtpd,
with six players and a host who each have a real mailbox, and helpers that craft hostile
mail byte for byte and inject it into pbp's INBOX. A `Site` is a ground of the one test
harness (tests/fixtures/harness.py): its settings, roster, CLI and stored game come from
there."""

from __future__ import annotations

import email
import json
from dataclasses import dataclass, field
from pathlib import Path

from email import policy
from email.utils import getaddresses

from pbp.mail.maildir import deliver
from tests.fixtures.harness import Ground, write_roster
from tests.fixtures.mailserver import Dovecot, SmtpServer

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid")
GAME = "g1"
SEED = "7"


@dataclass
class Site(Ground):
    dovecot: Dovecot | None = None
    smtp: SmtpServer | None = None
    replies_per_day: int = 1000
    max_mail_size: int = 1_000_000
    wrong_tokens_per_day: int = 10
    poll_interval: float | None = None  # None: pbp's own default
    moderator: str = ""
    host: str = ""
    players: dict[str, str] = field(default_factory=dict)  # name -> address
    welcome: dict[str, str] = field(default_factory=dict)  # name -> text of the welcome mail
    _serial: int = 0

    def start(self) -> "Site":
        self.moderator = self.dovecot.add_user(
            self.dovecot.new_address("pbp", "pbp.test"), "modpass"
        )
        self.host = self.dovecot.add_user(self.dovecot.new_address("host", "host.test"))
        self.players = {
            name: self.dovecot.add_user(self.dovecot.new_address(name.lower())) for name in NAMES
        }
        self.write_settings(self.sections())
        self.new_game()
        for name, address in self.players.items():
            (message,) = self.dovecot.messages(address)
            self.welcome[name] = full_text(message, headers=False)
        return self

    def sections(self, imap_user: str | None = None) -> dict[str, dict[str, object]]:
        """The site's settings over the real servers, as mappings a test may change; the
        IMAP login is the moderator's own unless `imap_user` is given."""
        (self.root / "imap-password").write_text("modpass\n")
        return {
            "pbp": self.pbp_settings("imap"),
            "imap": {
                "host": self.dovecot.host,
                "port": self.dovecot.imap_port,
                "security": "none",
                "user": imap_user or self.moderator,
                "password_file": self.root / "imap-password",
            },
            "smtp": {"host": self.smtp.host, "port": self.smtp.port, "security": "none"},
            "forum": self.forum_settings(),
        }

    def pbp_settings(self, transport: str) -> dict[str, object]:
        polling = {} if self.poll_interval is None else {"poll_interval": self.poll_interval}
        return {
            "data": self.data,
            "transport": transport,
            "from_address": self.moderator,
            "max_mail_size": self.max_mail_size,
            "replies_per_sender_per_day": self.replies_per_day,
            "wrong_tokens_per_sender_per_day": self.wrong_tokens_per_day,
            **polling,
        }

    def forum_settings(self) -> dict[str, object]:
        return {"host_address": self.host, "posts": self.root / "posts"}

    def new_game(self) -> None:
        assert (
            self.cli(
                "new-game",
                "--ruleset",
                "infiltration",
                "--roster",
                str(write_roster(self.root, self.players)),
                "--seed",
                SEED,
                "--id",
                GAME,
                "--schedule",
                "default=48h",
            )
            == 0
        ), self.last_output

    def poll(self) -> None:
        assert self.cli("poll") == 0, self.last_output

    # ------------------------------------------------------------------ the stored game
    def orders(self) -> list[dict]:
        return list(self.tables().get("orders", {}).values())

    def registry_mails(self) -> list[dict]:
        """Mail the registry records (mail that belongs to no game, quarantined, too big)."""
        registry = json.loads((self.data / "registry.json").read_text())
        return list(registry.get("mails", {}).values())

    def token(self, name: str) -> str:
        return self.record()["tokens"][name]

    def phase(self) -> str:
        return self.record()["phase_id"]

    def valid_orders(self, name: str) -> str:
        import engine

        rules = engine.ruleset("infiltration")
        return rules.scripted_orders(rules.from_json(self.record()["state"]), name, 1)

    def block(
        self, name: str, orders: str | None = None, token: str | None = None, game: str = GAME
    ) -> str:
        orders = self.valid_orders(name) if orders is None else orders
        return (
            f"BEGIN ORDERS {game} {self.phase()}\nTOKEN: {token or self.token(name)}\n"
            f"{orders}\nEND ORDERS\n"
        )

    # ------------------------------------------------------------------ crafting and injecting
    def serial(self) -> int:
        self._serial += 1
        return self._serial

    def mail(
        self,
        sender: str | None,
        body: str | bytes = "",
        subject: str = "orders",
        headers: str = "",
        message_id: str | None = None,
        content_type: str | None = None,
        to: str | None = None,
    ) -> bytes:
        """A message as bytes: the given headers, exactly, and a unique Message-ID (unless
        `message_id` is "" (none) or given). `sender` None: no From header at all."""
        serial = self.serial()
        lines = []
        if sender is not None:
            lines.append(f"From: {sender}")
        lines += [
            f"To: {to or self.moderator}",
            f"Subject: {subject}",
            "Date: Mon, 30 Nov 2026 12:00:00 +0000",
        ]
        if message_id is None:
            message_id = f"<fault-{serial}@attacker.test>"
        if message_id:
            lines.append(f"Message-ID: {message_id}")
        lines.append("MIME-Version: 1.0")
        lines.append(f"Content-Type: {content_type or 'text/plain; charset=utf-8'}")
        lines += [line for line in headers.splitlines() if line]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8")
        data = (
            body
            if isinstance(body, bytes)
            else body.replace("\r\n", "\n").replace("\n", "\r\n").encode("utf-8")
        )
        return head + data

    # ------------------------------------------------------------------ what the oracle reads
    def inbox_left(self) -> int:
        return self.dovecot.count(self.moderator, "INBOX")

    def filed_since(self, folder: str, seen: dict) -> list[bytes]:
        """Messages filed in `folder` on the IMAP server since the last call."""
        with self.dovecot.imap(self.moderator) as client:
            if not client.folder_exists(folder):
                return []
            client.select_folder(folder, readonly=True)
            uids = [uid for uid in client.search(["NOT", "DELETED"]) if uid > seen.get(folder, 0)]
            if not uids:
                return []
            seen[folder] = max(uids)
            fetched = client.fetch(uids, ["BODY.PEEK[]"])
            return [fetched[uid][b"BODY[]"] for uid in sorted(fetched)]

    def sent_mark(self) -> tuple[int, int]:
        return len(self.smtp.delivered), len(self.smtp.attempted)

    def sent_since(self, mark: tuple[int, int]) -> list[tuple[list[str], bytes]]:
        return [(d.recipients, d.data) for d in self.smtp.delivered[mark[0] :]]

    def attempted_since(self, mark: tuple[int, int]) -> list[str]:
        return self.smtp.attempted[mark[1] :]

    def inject(self, *mails: bytes, envelope_from: str | None = None) -> list[bytes]:
        """Drop mails into pbp's INBOX, byte for byte (or over LMTP, as a mail server
        delivers, when `envelope_from` is given: "" is the empty return path `<>`)."""
        for data in mails:
            if envelope_from is None:
                self.dovecot.deliver_raw(self.moderator, data)
            else:
                self.dovecot.deliver_lmtp(self.moderator, data, envelope_from)
        return list(mails)


def full_text(message, headers: bool = True) -> str:
    """Every text part of a parsed message, decoded (after its headers, if asked)."""
    parts = [f"{name}: {value}" for name, value in message.items()] if headers else []
    for part in message.walk():
        if part.get_content_maintype() == "text":
            try:
                parts.append(part.get_content())
            except (LookupError, UnicodeError):
                parts.append(part.get_payload(decode=True).decode("utf-8", "replace"))
    return "\n".join(parts)


class MaildirSite(Site):
    """The same game over the embedded Maildir transport (the fast ground for fuzzing):
    mail arrives in `<data>/mail/inbox`, is filed in its `.processed` / `.rejected` /
    `.quarantine` folders, and every sent mail is a file in `<data>/mail/outbox`."""

    def __init__(self, root: Path, **settings) -> None:
        super().__init__(root, None, None, **settings)

    def start(self) -> "MaildirSite":
        self.moderator, self.host = "pbp@pbp.test", "host@host.test"
        self.players = {name: f"{name.lower()}@example.org" for name in NAMES}
        self.write_settings({"pbp": self.pbp_settings("maildir"), "forum": self.forum_settings()})
        self.new_game()
        for name, address in self.players.items():
            (path,) = (self.mail_root / address / "new").iterdir()
            message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
            self.welcome[name] = full_text(message, headers=False)
        return self

    @property
    def mail_root(self) -> Path:
        return self.data / "mail"

    def inbox_left(self) -> int:
        return sum(len(list((self.mail_root / "inbox" / sub).iterdir())) for sub in ("new", "cur"))

    def filed_since(self, folder: str, seen: dict) -> list[bytes]:
        root = self.mail_root / "inbox" / f".{folder}"
        known = seen.setdefault(folder, set())
        found = []
        for sub in ("new", "cur"):
            for path in sorted((root / sub).iterdir()) if (root / sub).is_dir() else []:
                if path.name not in known:
                    known.add(path.name)
                    found.append(path.read_bytes())
        return found

    def _outbox(self) -> list[Path]:
        folder = self.mail_root / "outbox" / "new"
        return (
            sorted(folder.iterdir(), key=lambda p: (p.stat().st_mtime_ns, p.name))
            if folder.is_dir()
            else []
        )

    def sent_mark(self) -> set[str]:
        return {path.name for path in self._outbox()}

    def sent_since(self, mark: set[str]) -> list[tuple[list[str], bytes]]:
        sent = []
        for path in self._outbox():
            if path.name not in mark:
                data = path.read_bytes()
                to = email.message_from_bytes(data, policy=policy.default)["To"]
                sent.append(
                    ([address.lower() for _name, address in getaddresses([str(to or "")])], data)
                )
        return sent

    def attempted_since(self, mark: set[str]) -> list[str]:
        return [address for recipients, _data in self.sent_since(mark) for address in recipients]

    def inject(self, *mails: bytes, envelope_from: str | None = None) -> list[bytes]:
        for data in mails:
            deliver(self.mail_root / "inbox", data)
        return list(mails)
