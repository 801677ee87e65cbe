"""Signing in to the mail servers with OAuth2 (docs/design.md: Real mail providers): the access
tokens IMAP and SMTP present, and the flows that get the host's refresh token once."""
