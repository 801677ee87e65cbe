"""Settling: moving handled mail out of the IMAP inbox into its outcome's folder
(pbp.mail.imap.mailbox; docs/design.md: Reliability rules — Ingest). MOVE when the server has it,
else COPY, `\\Deleted` and UID EXPUNGE; the folder is created when missing; mail already
gone is left alone, so a settle repeated after a crash does nothing."""

from __future__ import annotations

import imaplib

from imapclient import IMAPClient

from pbp.ports import Outcome

OUTCOMES = ("processed", "rejected", "quarantine")


def check_outcome(outcome: Outcome) -> None:
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}")


def uids_by_validity(keys: list[str]) -> dict[int, list[int]]:
    """Mail keys (`"<UIDVALIDITY>:<UID>"`) grouped by the inbox's UIDVALIDITY."""
    by_validity: dict[int, list[int]] = {}
    for key in keys:
        uidvalidity_text, _, uid_text = key.partition(":")
        by_validity.setdefault(int(uidvalidity_text), []).append(int(uid_text))
    return by_validity


def move_out(client: IMAPClient, uids: list[int], target: str) -> None:
    """Move those of `uids` still in the selected inbox to `target`, in one command."""
    present = client.search(["UID", ",".join(str(uid) for uid in sorted(uids)), "NOT", "DELETED"])
    if not present:
        return  # already moved (a settle repeated after a crash)
    if client.has_capability("MOVE"):
        client.move(present, target)
        return
    client.copy(present, target)
    client.add_flags(present, [b"\\Deleted"])
    if client.has_capability("UIDPLUS"):
        client.uid_expunge(present)
    else:
        client.expunge()


def ensure_folder(client: IMAPClient, folder: str, existing: set[str]) -> None:
    """Create `folder` unless this connection already knows it exists (`existing`)."""
    if folder in existing:
        return
    if not client.folder_exists(folder):
        try:
            client.create_folder(folder)
        except imaplib.IMAP4.error:
            if not client.folder_exists(folder):  # lost a race with another creator
                raise
    existing.add(folder)
