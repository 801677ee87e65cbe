"""The IMAP mailbox (docs/design.md: Reliability rules — Ingest): the `Mailbox` port over
imapclient, downloading a poll's mail in parts, moving handled mail into its outcome's
folder, and the small readings of a server's answers they share."""
