"""`pbp run` and its turn of work: the cycle, waking up, IMAP IDLE (docs/design.md: Data flow)."""
