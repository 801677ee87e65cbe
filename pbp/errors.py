"""Errors a person sees: one clear sentence saying what was wrong and how to fix it."""


class UserError(Exception):
    """Bad input from the host; the CLI prints it as one line and exits non-zero."""
