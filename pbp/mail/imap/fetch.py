"""Downloading a poll's mail from the selected inbox (pbp.mail.imap.mailbox; docs/design.md:
Reliability rules — Ingest): in parts, each part's sizes asked for first, so that oversized
mail is reported from its ENVELOPE instead of downloaded, and the download stops once a
poll's byte budget is spent (at least one message), however large the backlog's mails."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from imapclient import IMAPClient

from pbp.mail.imap.wire import envelope_sender
from pbp.ports import OversizedMail, RawMail


@dataclass(frozen=True)
class DownloadLimits:
    max_bytes: int | None  # larger mail is not downloaded, only reported
    batch_size: int  # messages per FETCH of bodies
    max_batch_bytes: int  # what one poll downloads at most (at least one message)


def download_in_parts(
    client: IMAPClient,
    uidvalidity: int,
    uids: list[int],
    part_sizes: Iterable[int],
    limits: DownloadLimits,
) -> Iterator[list[RawMail | OversizedMail]]:
    """`uids` of the selected inbox downloaded in parts of `part_sizes` messages each (the
    last size repeats), each part's sizes checked first: oversized mail is reported, not
    downloaded, and the parts stop once `limits.max_batch_bytes` is spent."""
    sizes: dict[int, int] = {}
    sizes_left = iter(part_sizes)
    size, start, spent, sized = 1, 0, 0, 0  # sizes asked for uids[:sized]
    while start < len(uids):
        size = max(1, next(sizes_left, size))
        chunk = uids[start : start + size]
        if start >= sized:
            # The first part's sizes alone, so that it comes soon; then all the others
            # in one command, as each command costs the server a look at its index.
            asked = chunk if start == 0 else uids[start:]
            sizes.update(
                (uid, int(data[b"RFC822.SIZE"]))
                for uid, data in client.fetch(asked, ["RFC822.SIZE"]).items()
            )
            sized = start + len(asked)
        start += size
        affordable = within_budget(chunk, sizes, limits, spent)
        oversized = [
            uid
            for uid in affordable
            if limits.max_bytes is not None and sizes.get(uid, 0) > limits.max_bytes
        ]
        wanted = [uid for uid in affordable if uid in sizes and uid not in oversized]
        spent += sum(sizes[uid] for uid in wanted)
        part = _oversized(client, uidvalidity, oversized, sizes) + _downloaded(
            client, uidvalidity, wanted, limits.batch_size
        )
        yield sorted(part, key=_uid_of)  # oldest first, oversized mail among the rest
        if len(affordable) < len(chunk):
            return  # the byte budget is spent: the rest waits for the next poll


def _oversized(
    client: IMAPClient, uidvalidity: int, uids: list[int], sizes: dict[int, int]
) -> list[RawMail | OversizedMail]:
    """Oversized mail reported with its sender from its ENVELOPE, never downloaded."""
    part: list[RawMail | OversizedMail] = []
    if uids:
        envelopes = client.fetch(uids, ["ENVELOPE"])
        for uid in uids:
            envelope = envelopes.get(uid, {}).get(b"ENVELOPE")
            part.append(
                OversizedMail(
                    key=f"{uidvalidity}:{uid}", size=sizes[uid], sender=envelope_sender(envelope)
                )
            )
    return part


def _downloaded(
    client: IMAPClient, uidvalidity: int, uids: list[int], batch_size: int
) -> list[RawMail | OversizedMail]:
    """The messages `uids` downloaded, `batch_size` to a FETCH, without marking them seen."""
    part: list[RawMail | OversizedMail] = []
    for batch_start in range(0, len(uids), batch_size):
        batch = uids[batch_start : batch_start + batch_size]
        for uid, data in client.fetch(batch, ["BODY.PEEK[]"]).items():
            body = data.get(b"BODY[]")
            if body is not None:
                part.append(
                    RawMail(
                        key=f"{uidvalidity}:{uid}",
                        data=body,
                        sha256=hashlib.sha256(body).hexdigest(),
                    )
                )
    return part


def within_budget(
    uids: list[int], sizes: dict[int, int], limits: DownloadLimits, spent: int = 0
) -> list[int]:
    """The first `uids` whose downloads fit in what is left of `max_batch_bytes` after
    `spent` (at least one when nothing was spent yet): a long backlog is fetched over
    several polls, never all into memory at once. Oversized mail is not downloaded, so
    it costs nothing here."""
    total = spent
    for position, uid in enumerate(uids):
        size = sizes.get(uid, 0)
        if limits.max_bytes is not None and size > limits.max_bytes:
            continue
        total += size
        if total > limits.max_batch_bytes and (position > 0 or spent > 0):
            return uids[:position]
    return uids


def _uid_of(item: RawMail | OversizedMail) -> int:
    return int(item.key.partition(":")[2])
