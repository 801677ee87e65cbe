"""`pbp poll`: one ingest cycle (read, judge and answer new mail), then send the outbox."""
from __future__ import annotations

from pbp.commands.common import add_settings_arguments, open_moderator
from pbp.cycle import Cycle
from pbp.transport import open_mailbox, open_sender


def register(subparsers) -> None:
    parser = subparsers.add_parser("poll", help="read new mail once, answer it, and send what is queued")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args) -> int:
    with open_moderator(args) as moderator:
        cycle = Cycle(moderator, open_mailbox(moderator.settings), open_sender(moderator.settings))
        try:
            sent_before = cycle.send()
            report = cycle.poll()
            sent = cycle.send()
        finally:
            cycle.close()
    print(f"Mail read: {len(report.processed)} judged, {len(report.resettled)} filed again after a restart, "
          f"{len(report.quarantined) + len(report.oversized)} quarantined or refused, {len(report.failed)} failed "
          f"(will be retried).")
    print(f"Mail sent: {sent_before.sent + sent.sent}; waiting to retry: {sent.retrying}; failed: {sent.failed}.")
    for key, reason in report.failed:
        print(f"  {key}: {reason}")
    return 0
