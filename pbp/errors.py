"""Errors a person sees: one clear sentence saying what was wrong and how to fix it."""


class UserError(Exception):
    """Bad input from the host; the CLI prints it as one line and exits non-zero."""


def described(error: BaseException) -> str:
    """An exception as one line of a report (`pbp poll`, the daemon's log): its kind and text."""
    return f"{type(error).__name__}: {error}"
