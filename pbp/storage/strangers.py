"""Mail from addresses on no roster, kept as a bounded summary (docs/design.md: Order mail
format — "the host sees it in `pbp status`"; Hostile input — what an outsider sends must
not grow pbp's files without bound).

One document in the registry's `strangers` table holds, per sender address, how many
mails came, when the first and the last came, the last one's subject (cleaned, cut) and
why it was not answered; at most `MAX_SENDERS` addresses, the longest silent forgotten
first and counted. Only the identities of the last `RECENT_MAILS` mails are kept, so a
mail received again after a crash (before it was moved on the server) is still
recognised; the mails themselves are not kept.
"""

from __future__ import annotations

import copy
from typing import Any

from pbp.mail.header_values import header_line
from pbp.storage.datafolder import DataFolder

MAX_SENDERS = 100
RECENT_MAILS = 500
SUBJECT_LENGTH = 120


def empty_summary() -> dict[str, Any]:
    return {"mails": 0, "senders": {}, "forgotten_senders": 0, "recent": []}


class StrangerLog:
    def __init__(self, folder: DataFolder):
        self.table = folder.registry.table("strangers", cache_size=0)

    def summary(self) -> dict[str, Any]:
        docs = self.table.all()  # a copy: the storage's own data must change only by a write
        return {**empty_summary(), **copy.deepcopy(dict(docs[0]))} if docs else empty_summary()

    def note(self, row: dict[str, Any]) -> None:
        """Count one mail (a handled-mail row: key, sha256, message_id, sender, subject,
        outcome, reason, received)."""
        summary = self.summary()
        sender = row["sender"] or ""
        seen = summary["senders"].pop(sender, None) or {"count": 0, "first": row["received"]}
        summary["senders"][sender] = {
            **seen,
            "count": seen["count"] + 1,
            "last": row["received"],
            "subject": header_line(row["subject"], SUBJECT_LENGTH),
            "reason": header_line(row["reason"], SUBJECT_LENGTH),
        }
        while (
            len(summary["senders"]) > MAX_SENDERS
        ):  # dicts keep order: the first is the longest silent
            del summary["senders"][next(iter(summary["senders"]))]
            summary["forgotten_senders"] += 1
        summary["mails"] += 1
        identity = [row["key"], row["sha256"], row["message_id"], sender, row["outcome"]]
        summary["recent"] = [*summary["recent"], identity][-RECENT_MAILS:]
        if self.table.all():
            self.table.update(summary, doc_ids=[self.table.all()[0].doc_id])
        else:
            self.table.insert(summary)

    def forget(self, address: str) -> None:
        """`address` is no stranger any more (it signed up): the host's list of unknown
        senders no longer shows it; the count of mails stays."""
        summary = self.summary()
        known = {sender for sender in summary["senders"] if sender.lower() == address.lower()}
        if known:
            summary["senders"] = {k: v for k, v in summary["senders"].items() if k not in known}
            self.table.update(summary, doc_ids=[self.table.all()[0].doc_id])

    def recent_rows(self) -> list[dict[str, Any]]:
        """The identities of the last mails, as handled-mail rows (for the desk's index)."""
        return [
            {
                "key": key,
                "sha256": sha256,
                "message_id": message_id,
                "sender": sender,
                "outcome": outcome,
            }
            for key, sha256, message_id, sender, outcome in self.summary()["recent"]
        ]
