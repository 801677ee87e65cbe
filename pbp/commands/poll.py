"""`pbp poll`: one ingest cycle (read, judge and answer new mail), then send the outbox.

Deadlines are `pbp run`'s (or `pbp advance`'s) to resolve; but a phase whose last orders
this poll read resolves at once in a game with the option `resolve_when_all_in`
(docs/design.md: Deadlines, "as soon as every player who must act has orders in"), as it
would under `pbp run`."""

from __future__ import annotations

from argparse import Namespace

from pbp.commands.common import add_settings_arguments, open_moderator, Subparsers
from pbp.daemon.cycle import Cycle
from pbp.game.resolution import resolve_all_in
from pbp.mail.transport import MAILBOX_ACCESS_ERRORS, mailbox_trouble, open_mailbox, open_sender


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "poll", help="read new mail once, answer it, and send what is queued"
    )
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    with open_moderator(args) as moderator:
        cycle = Cycle(moderator, open_mailbox(moderator.settings), open_sender(moderator.settings))
        try:
            sent_before = cycle.send()
            try:
                report = cycle.poll()
            except (
                MAILBOX_ACCESS_ERRORS
            ) as error:  # one message never stops a poll; no mailbox does
                raise mailbox_trouble(moderator.settings, error) from None
            early = resolve_all_in(moderator)
            sent = cycle.send()
        finally:
            cycle.close()
    print(
        f"Mail read: {len(report.processed)} judged, {len(report.resettled)} filed again after a"
        f" restart, {len(report.quarantined) + len(report.oversized)} quarantined or refused,"
        f" {len(report.failed)} failed (will be retried)."
    )
    for summary in early:
        print(summary.resolved_early())
    print(
        f"Mail sent: {sent_before.sent + sent.sent}; waiting to retry: {sent.retrying}; failed:"
        f" {sent.failed}."
    )
    for key, reason in report.failed:
        print(f"  {key}: {reason}")
    return 0
