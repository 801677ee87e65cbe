"""The mailbox and sender `pbp run` keeps open between cycles."""
from __future__ import annotations

from pbp.ports import Mailbox, MailSender
from pbp.settings import Settings
from pbp.transport import open_mailbox, open_sender


class MailLinks:
    """The mailbox and sender, kept open between cycles (an IMAP login per poll would be
    wasteful) and reopened when the settings that define them change."""

    def __init__(self, opener_mailbox=open_mailbox, opener_sender=open_sender):
        self._open_mailbox = opener_mailbox
        self._open_sender = opener_sender
        self._key = None
        self.mailbox: Mailbox | None = None
        self.sender: MailSender | None = None

    @staticmethod
    def _key_of(settings: Settings) -> tuple:
        return (settings.transport, settings.data, settings.imap, settings.smtp, settings.from_address,
                settings.max_mail_size)

    def for_settings(self, settings: Settings) -> tuple[Mailbox, MailSender]:
        key = self._key_of(settings)
        if key != self._key:
            self.close()
            self.mailbox, self.sender = self._open_mailbox(settings), self._open_sender(settings)
            self._key = key
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
