"""The outbox (docs/design.md: Reliability rules, Outbox): the ledger of every mail pbp
sends, kept in each game's file. The storage keeps the queue (pbp.storage.outbox_queue);
sending it is the daemon's job (pbp.daemon.outbox_sending), so nothing here talks to a
mail server.
"""
from __future__ import annotations

from pbp.storage.outbox_queue import OutboxQueue


class Outbox(OutboxQueue):
    """A data folder's outbox: rows queued, and the rows not yet sent."""
