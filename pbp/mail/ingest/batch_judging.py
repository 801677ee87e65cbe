"""Judging the mail of a poll never tried before in one durable write of the desk
(pbp.mail.ingest.ingest_cycle; docs/design.md: Reliability rules — Ingest): when one
message raises, the batch's write is discarded and the others are judged again without it.
"""

from __future__ import annotations

from collections.abc import Callable

from pbp.errors import described
from pbp.mail.ingest.spool import SpooledMail
from pbp.ports import OrderDesk, Outcome, RawMail

# A judged message: its spool entry, its outcome, and whether it was judged before.
Judged = tuple[SpooledMail, Outcome, bool]


class _Abandon(Exception):
    """One message raised inside a batch: discard the batch's write."""


def judge_together(
    desk: OrderDesk,
    entries: list[SpooledMail],
    judge: Callable[[RawMail], Outcome],
    failed: list[tuple[str, str]],
) -> list[Judged] | None:
    """`entries` judged in one durable write of `desk`, each by `judge` unless the desk
    handled it already; None when the write failed or no message is left. Each message
    that raised, and each message of a failed write, is added to `failed` (key, reason)."""
    remaining = list(entries)
    while remaining:
        judged: list[Judged] = []
        culprit: tuple[SpooledMail, BaseException] | None = None
        try:
            with desk.batch():
                for entry in remaining:
                    raw = entry.raw
                    earlier = desk.already_handled(raw.key, raw.sha256)
                    if earlier is not None:
                        judged.append((entry, earlier, True))
                        continue
                    try:
                        outcome = judge(raw)
                    # One message never stops the batch: it is retried alone (see
                    # pbp.mail.ingest.ingest_cycle).
                    except Exception as error:
                        culprit = (entry, error)
                        raise _Abandon() from error
                    judged.append((entry, outcome, False))
        except _Abandon:
            assert culprit is not None  # set just before _Abandon is raised
            failed_entry, failure = culprit
            failed.append((failed_entry.raw.key, described(failure)))
            remaining = [entry for entry in remaining if entry is not failed_entry]
            continue
        except Exception as error:  # the batch's durable write itself failed
            failed.extend((entry.raw.key, described(error)) for entry in remaining)
            return None
        return judged
    return None
