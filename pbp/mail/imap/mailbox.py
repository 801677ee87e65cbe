"""`Mailbox` over IMAP with imapclient (docs/design.md: Reliability rules — Ingest).

- Messages are read with `BODY.PEEK[]`, so fetching never marks them seen.
- A message is identified by `"<UIDVALIDITY>:<UID>"` of the inbox.
- The size (`RFC822.SIZE`) is checked before download; a message over the limit is not
  downloaded but reported as `OversizedMail` with the sender from its ENVELOPE
  (pbp.mail.imap.fetch).
- The inbox is selected once per connection; later polls send NOOP to learn of new mail.
- A poll of at least `read_ahead_from` messages is read ahead by a child process on its
  own connection (pbp.mail.ingest.read_ahead, `read`); this connection then makes the moves.
- One poll downloads at most `limit` messages and `max_batch_bytes` bytes (at least one
  message), so a backlog is taken in parts however large its mails.
- `settle` moves a message out of the inbox (MOVE when the server has it, else COPY,
  `\\Deleted` and UID EXPUNGE; pbp.mail.imap.moves), creating the folder when missing;
  settling a message that is already gone does nothing. `settle_many` does the same for a
  committed batch in one UID SEARCH and one MOVE (a MOVE per message costs the server a
  sync each). Settled mail leaves the inbox, so an idle poll (one NOOP and one UID
  SEARCH) costs the same however much mail was handled before.
- A dropped connection is reopened once per operation.
- Login is by password, or by an OAuth2 access token (`login = "xoauth2"` or
  `"oauthbearer"`, tokens from a pbp.mail.sign_in.oauth.TokenSource); a refused token is
  refreshed and tried once more.
- `wait_for_mail` waits in IDLE (RFC 2177) for the server to announce new mail
  (pbp.mail.imap.connecting, which also opens the connection and logs in).
"""

from __future__ import annotations

import contextlib
import copy
import imaplib
import ssl
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TypeVar

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientAbortError

from pbp.mail.imap.connecting import idle_until_mail, log_in, open_connection
from pbp.mail.imap.fetch import DownloadLimits, download_in_parts
from pbp.mail.imap.moves import check_outcome, ensure_folder, move_out, uids_by_validity
from pbp.mail.imap.wire import quietly_close
from pbp.mail.sign_in.oauth import TokenSource, token_source_for
from pbp.mail.ingest.read_ahead import ReadAhead, can_read_ahead
from pbp.mail.ingest.reading import Fetched, Prepare, Reading
from pbp.ports import OversizedMail, Outcome, RawMail
from pbp.settings import Security

DEFAULT_FOLDERS = {
    "inbox": "INBOX",
    "processed": "processed",
    "rejected": "rejected",
    "quarantine": "quarantine",
}
_CONNECTION_LOST = (IMAPClientAbortError, imaplib.IMAP4.abort, OSError, EOFError)
T = TypeVar("T")


class ImapMailbox:
    def __init__(
        self,
        host: str,
        port: int,
        security: Security,
        user: str,
        password: str,
        folders: Mapping[str, str] | None = None,
        ssl_context: ssl.SSLContext | None = None,
        max_bytes: int | None = None,
        timeout: float = 30.0,
        batch_size: int = 100,
        max_batch_bytes: int = 64 * 1024 * 1024,
        login: str = "password",
        token_source: TokenSource | None = None,
        read_ahead_from: int = 0,
    ) -> None:
        if security not in ("tls", "starttls", "none"):
            raise ValueError(f'IMAP security must be "tls", "starttls" or "none", not {security!r}')
        self.host, self.port, self.security = host, port, security
        self.user, self.password = user, password
        self.folders = {**DEFAULT_FOLDERS, **(folders or {})}
        self.ssl_context = ssl_context
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.batch_size = batch_size
        self.max_batch_bytes = max_batch_bytes
        self.login, self.token_source = login, token_source_for("IMAP", login, token_source)
        self.read_ahead_from = read_ahead_from
        self.uidvalidity: int | None = None
        self._client: IMAPClient | None = None
        self._existing_folders: set[str] = set()
        self._inbox_selected = False

    # ------------------------------------------------------------------ connection
    def _connect(self) -> IMAPClient:
        return open_connection(
            self.host, self.port, self.security, self.ssl_context, self.timeout, self._log_in
        )

    def _log_in(self, client: IMAPClient) -> None:
        log_in(client, self.login, self.user, self.password, self.token_source)

    def _with_connection(self, operation: Callable[[IMAPClient], T]) -> T:
        """Run `operation` on a live connection; reconnect once if it was dropped."""
        for attempt in (1, 2):
            if self._client is None:
                self._client = self._connect()
                self._existing_folders.clear()
                self._inbox_selected = False
            try:
                return operation(self._client)
            except _CONNECTION_LOST:
                quietly_close(self._client)
                self._client = None
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def _select_inbox(self, client: IMAPClient) -> int:
        selected = client.select_folder(self.folders["inbox"])
        self.uidvalidity = int(selected[b"UIDVALIDITY"])
        self._inbox_selected = True
        return self.uidvalidity

    # ------------------------------------------------------------------ Mailbox
    def fetch_new(self, limit: int) -> list[RawMail | OversizedMail]:
        return self._with_connection(lambda client: self._fetch_new(client, limit))

    def _fetch_new(self, client: IMAPClient, limit: int) -> list[RawMail | OversizedMail]:
        uidvalidity, uids = self._new_uids(client, limit)
        return self._download_all(client, uidvalidity, uids)

    def _download_all(
        self, client: IMAPClient, uidvalidity: int, uids: list[int]
    ) -> list[RawMail | OversizedMail]:
        return [
            item for part in self._download(client, uidvalidity, uids, [len(uids)]) for item in part
        ]

    def _new_uids(self, client: IMAPClient, limit: int) -> tuple[int, list[int]]:
        """The inbox's UIDVALIDITY and its first `limit` unsettled UIDs, oldest first."""
        if self._inbox_selected and self.uidvalidity is not None:
            # Already selected on this connection: NOOP makes the server report new mail
            # (RFC 3501 6.1.2). A fresh SELECT re-reads the mailbox's index and its log of
            # every message moved out, and got slower with each mail handled.
            client.noop()
            uidvalidity = self.uidvalidity
        else:
            uidvalidity = self._select_inbox(client)
        return uidvalidity, sorted(client.search(["NOT", "DELETED"]))[:limit]

    def _download(
        self, client: IMAPClient, uidvalidity: int, uids: list[int], part_sizes: Iterable[int]
    ) -> Iterator[list[RawMail | OversizedMail]]:
        """`uids` downloaded in parts of `part_sizes` messages each (pbp.mail.imap.fetch);
        one empty part when the inbox was recreated since `uidvalidity` was read, or `uids`
        is empty."""
        current = self.uidvalidity if self._inbox_selected else self._select_inbox(client)
        if current != uidvalidity or not uids:
            yield []
            return
        yield from download_in_parts(
            client,
            uidvalidity,
            uids,
            part_sizes,
            DownloadLimits(self.max_bytes, self.batch_size, self.max_batch_bytes),
        )

    def read(self, limit: int, prepare: Prepare) -> Reading:
        """One poll's reading (pbp.mail.ingest.reading): with at least `read_ahead_from` new
        messages, a child process downloads and prepares them while this one judges."""
        uidvalidity, uids = self._with_connection(lambda client: self._new_uids(client, limit))
        if self.read_ahead_from and len(uids) >= self.read_ahead_from and can_read_ahead():
            source = self._handed_over()
            try:
                return ReadAhead(source, uidvalidity, uids, prepare, mover=self)
            except BaseException:
                source.close()
                raise
        return Fetched(
            self,
            lambda: self._with_connection(
                lambda client: self._download_all(client, uidvalidity, uids)
            ),
        )

    def download_parts(
        self, uidvalidity: int, uids: list[int], part_sizes: Iterable[int]
    ) -> Iterator[list[RawMail | OversizedMail]]:
        """The read-ahead child's download, on this mailbox's own connection."""
        client = self._with_connection(lambda client: client)
        yield from self._download(client, uidvalidity, uids, part_sizes)

    def _handed_over(self) -> ImapMailbox:
        """A copy holding this mailbox's connection, logged in and on the inbox, for a child
        process to read with at once; this mailbox opens a new connection for its next
        command (the poll's first move, made on its own thread while the judging goes on)."""
        twin = copy.copy(self)
        twin._existing_folders = set(self._existing_folders)
        self._client, self._existing_folders, self._inbox_selected = None, set(), False
        return twin

    def let_go(self) -> None:
        """In the parent, once the child that read with this copy has ended: close the
        connection without a word to the server (the child logged out, or died)."""
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):  # already closed by the server: nothing left to do
                client.shutdown()

    # ------------------------------------------------------------------ settling
    def settle(self, key: str, outcome: Outcome) -> None:
        self.settle_many([key], outcome)

    def settle_many(self, keys: list[str], outcome: Outcome) -> None:
        """Settle several messages with one outcome in one move (a committed batch)."""
        check_outcome(outcome)
        for uidvalidity, uids in uids_by_validity(keys).items():
            self._with_connection(
                lambda client: self._settle_uids(client, uidvalidity, uids, outcome)
            )

    def _settle_uids(
        self, client: IMAPClient, uidvalidity: int, uids: list[int], outcome: Outcome
    ) -> None:
        current = self.uidvalidity if self._inbox_selected else self._select_inbox(client)
        if current != uidvalidity:
            # The inbox was recreated: those UIDs name no message of ours any more.
            return
        target = self.folders[outcome]
        ensure_folder(client, target, self._existing_folders)
        move_out(client, uids, target)

    # ------------------------------------------------------------------ IDLE
    def supports_idle(self) -> bool:
        return self._with_connection(lambda client: bool(client.has_capability("IDLE")))

    def wait_for_mail(
        self,
        seconds: float,
        stopped: Callable[[], bool] = lambda: False,
        on_idle: Callable[[], None] = lambda: None,
        check_every: float = 1.0,
    ) -> bool:
        """Wait in IDLE at most `seconds` for the server to announce new mail (an EXISTS
        response), or mail already in the inbox when the connection is new; True if so.
        `on_idle` is called once the server has accepted IDLE
        (mail delivered from then on is announced). `stopped` is asked every
        `check_every` seconds, so a daemon that shuts down is not kept waiting. Ending IDLE
        before the server's own timeout and calling this again is the caller's loop."""
        return self._with_connection(
            lambda client: self._idle(client, seconds, stopped, on_idle, check_every)
        )

    def _idle(
        self,
        client: IMAPClient,
        seconds: float,
        stopped: Callable[[], bool],
        on_idle: Callable[[], None],
        check_every: float,
    ) -> bool:
        if not self._inbox_selected:
            # A new connection (the first, or one reopened after the server dropped the
            # last, maybe half-way through announcing a mail): IDLE only announces what
            # comes from now on, so mail already waiting is reported at once.
            self._select_inbox(client)
            if client.search(["NOT", "DELETED"]):
                return True
        return idle_until_mail(client, seconds, stopped, on_idle, check_every)

    def count(self, outcome_or_inbox: str = "inbox") -> int:
        """Messages in the inbox or an outcome folder (for status and tests)."""
        folder = self.folders.get(outcome_or_inbox, outcome_or_inbox)

        def count(client: IMAPClient) -> int:
            if folder == self.folders["inbox"]:
                self._select_inbox(client)
                return len(client.search(["NOT", "DELETED"]))
            if not client.folder_exists(folder):
                return 0
            return int(client.folder_status(folder, [b"MESSAGES"])[b"MESSAGES"])

        return self._with_connection(count)

    def close(self) -> None:
        if self._client is not None:
            quietly_close(self._client)
            self._client = None
