"""pbp's mail edge: reading inbound mail (IMAP, Maildir), parsing it into order blocks, and
sending mail (SMTP, Maildir). Everything here implements the ports in `pbp.ports`."""
