"""Reading a delivery status notification (a bounce): which of our recipients failed for
good, and the Message-ID of the mail that bounced (design.md: Real mail providers).

Detection is Mailman's `flufl.bounce`, which knows the formats of RFC 3464 DSNs and of
the many mail systems that write their own. Only mail the loop rules already refuse to
answer (an automatic message: empty return path, MAILER-DAEMON, a delivery report) is
looked at, so ordinary mail costs nothing here. Delays (temporary failures) are not
bounces: the mail system is still trying.
"""

from __future__ import annotations

import email
from email import policy
from email.message import Message
from typing import cast

from pbp.mail.headers import first_message_id
from pbp.ports import Bounce

ORIGINAL_PARTS = (
    "message/rfc822",
    "text/rfc822-headers",
    "message/rfc822-headers",
    "message/global",
    "message/global-headers",
)
MAX_ORIGINAL_IDS = 5  # Message-IDs of returned mail kept from one report


def read_bounce(message: Message) -> Bounce | None:
    """The permanent failures this automatic message reports, or None if it reports none."""
    from flufl.bounce import (
        scan_message,
    )  # loaded at the first automatic mail, not by every command

    failed = sorted(
        {_text(address).strip("<> ").lower() for address in scan_message(message) if address}
    )
    failed = [address for address in failed if "@" in address]
    if not failed:
        return None
    return Bounce(tuple(failed), _original_ids(message))


def _original_ids(message: Message) -> tuple[str, ...]:
    """The Message-IDs of the returned mail (one per returned part, at most
    `MAX_ORIGINAL_IDS`): a report returns one mail, so a report quoting more is bounded,
    not stored whole (docs/design.md: Hostile input)."""
    found: list[str] = []
    for part in message.walk():
        if part.get_content_type() not in ORIGINAL_PARTS:
            continue
        payload = part.get_payload()
        if isinstance(payload, list):  # message/rfc822: the returned message, parsed
            returned = cast(Message, payload[0]) if payload else None
        else:
            data = part.get_payload(decode=True)
            returned = email.message_from_bytes(
                data if isinstance(data, bytes) else b"", policy=policy.compat32
            )
        original = first_message_id(returned) if returned is not None else ""
        if original and original not in found:
            found.append(original)
            if len(found) == MAX_ORIGINAL_IDS:
                break
    return tuple(found)


def _text(address: bytes | str) -> str:
    return address.decode("utf-8", "replace") if isinstance(address, bytes) else address
