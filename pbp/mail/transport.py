"""The mailbox and the sender the settings ask for, and the pair `pbp run` keeps open between
cycles (docs/design.md: Embedded default).

`transport = maildir`: orders are read from `<data>/mail/inbox` and every mail is written
to `<data>/mail/outbox` plus the recipient's own folder `<data>/mail/<address>/`.
`transport = imap`: IMAP ([imap]) in, SMTP ([smtp]) out.
"""

from __future__ import annotations

import imaplib
import ssl
from typing import TYPE_CHECKING, Callable

from pbp.errors import UserError
from pbp.mail.ingest.reading import ReadingFailed
from pbp.mail.maildir import MaildirMailbox, MaildirSender
from pbp.mail.sign_in.oauth import TokenSource
from pbp.mail.smtp import SmtpSender
from pbp.ports import Mailbox, MailSender
from pbp.settings import Settings
from pbp.durable import private_folder

if TYPE_CHECKING:
    from pbp.mail.imap.mailbox import ImapMailbox


def _context(ca_file: str) -> ssl.SSLContext | None:
    return ssl.create_default_context(cafile=ca_file) if ca_file else None


# What reading a mailbox raises when the server is down, refuses the login or the
# certificate, or the Maildir is unreadable (imapclient's errors are IMAP4.error's).
MAILBOX_ACCESS_ERRORS = (OSError, imaplib.IMAP4.error, ReadingFailed)


def mailbox_trouble(settings: Settings, error: BaseException) -> UserError:
    """The one line a host reads when the mailbox cannot be read at all."""
    if settings.transport == "imap":
        imap = settings.imap
        where = (
            f"the IMAP server {imap.host}:{imap.port} ({imap.security}, user"
            f" {imap.user or '(none)'})"
        )
        fix = "check [imap] host, port, security, user and password, and that the server is up"
    else:
        where = f"the Maildir {settings.maildir_root / 'inbox'}"
        fix = "check that the folder exists and is readable"
    reason = str(error).strip() or type(error).__name__
    return UserError(f"Cannot read mail from {where}: {reason}; {fix}. No mail was read.")


def token_source(settings: Settings, login: str) -> TokenSource | None:
    """The OAuth2 access tokens an IMAP or SMTP login of kind `login` needs, if any."""
    return None if login == "password" else TokenSource(settings.oauth, settings.refresh_token_path)


def open_mailbox(settings: Settings) -> Mailbox:
    if settings.transport == "maildir":
        private_folder(settings.maildir_root)
        return MaildirMailbox(settings.maildir_root / "inbox", max_bytes=settings.max_mail_size)
    return open_imap_mailbox(settings)


def open_imap_mailbox(settings: Settings) -> ImapMailbox:
    """The IMAP mailbox of the settings (whatever their transport): `pbp run` waits in IDLE on
    one."""
    from pbp.mail.imap.mailbox import (
        ImapMailbox,
    )  # imapclient loads only for an IMAP mailbox (docs/design.md: Start-up)

    imap = settings.imap
    return ImapMailbox(
        imap.host,
        imap.port,
        imap.security,
        imap.user,
        imap.password,
        folders={
            "inbox": imap.inbox,
            "processed": imap.processed,
            "rejected": imap.rejected,
            "quarantine": imap.quarantine,
        },
        ssl_context=_context(imap.ca_file),
        max_bytes=settings.max_mail_size,
        login=imap.login,
        token_source=token_source(settings, imap.login),
        read_ahead_from=imap.read_ahead_from,
    )


def open_sender(settings: Settings) -> MailSender:
    if settings.transport == "maildir":
        return MaildirSender(settings.maildir_root)
    smtp = settings.smtp
    return SmtpSender(
        smtp.host,
        smtp.port,
        smtp.security,
        smtp.user or None,
        smtp.password or None,
        ssl_context=_context(smtp.ca_file),
        envelope_sender=settings.from_address,
        login=smtp.login,
        token_source=token_source(settings, smtp.login),
    )


class MailLinks:
    """The mailbox and sender, kept open between cycles (an IMAP login per poll would be
    wasteful) and reopened when the settings that define them change."""

    def __init__(
        self,
        opener_mailbox: Callable[[Settings], Mailbox] = open_mailbox,
        opener_sender: Callable[[Settings], MailSender] = open_sender,
    ) -> None:
        self._open_mailbox = opener_mailbox
        self._open_sender = opener_sender
        self._key: tuple[object, ...] | None = None
        self.mailbox: Mailbox | None = None
        self.sender: MailSender | None = None

    @staticmethod
    def _key_of(settings: Settings) -> tuple[object, ...]:
        return (
            settings.transport,
            settings.data,
            settings.imap,
            settings.smtp,
            settings.from_address,
            settings.max_mail_size,
        )

    def for_settings(self, settings: Settings) -> tuple[Mailbox, MailSender]:
        key = self._key_of(settings)
        if key != self._key:
            self.close()
            mailbox, sender = self._open_mailbox(settings), self._open_sender(settings)
            self.mailbox, self.sender, self._key = mailbox, sender, key
            return mailbox, sender
        assert self.mailbox is not None and self.sender is not None  # opened with the key
        return self.mailbox, self.sender

    def close(self) -> None:
        for link in (self.mailbox, self.sender):
            if link is not None:
                try:
                    link.close()
                except Exception:  # noqa: BLE001 - closing a dead connection may fail; it is gone anyway
                    pass
        self.mailbox = self.sender = None
        self._key = None
