"""Taking mail in (docs/design.md: Reliability rules — Ingest, Bad input): one ingest cycle (its
never-tried mail judged in one write) and its report, the durable spool of fetched mail, a
poll's reading and reading it ahead in a second process, what one order or message block holds,
and turning one inbound mail's bytes into what the game side needs."""
