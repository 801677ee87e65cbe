"""The data folder and what pbp keeps in it: durable writes and the writer lock, game files
and their journals, the registry and its index of deadlines, the outbox, the inbound mail
ledger, open games' files, the drafts (docs/design.md: Storage)."""
