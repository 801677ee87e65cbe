"""Errors a person sees: one clear sentence saying what was wrong and how to fix it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:  # the engine is imported only when an error is made (`pbp --version` is quick)
    from engine.errors import Value


class UserError(Exception):
    """Bad input from the host; the CLI prints it as one line and exits non-zero.

    `wording` is the sentence as a template with its values (engine.errors.Wording), so
    that the desk words it in the host's language (docs/design.md: Languages — the desk's
    words); `str(error)` is the English sentence the command line prints."""

    def __init__(self, message: object = "", *rest: object) -> None:
        from engine.errors import Wording

        self.wording = message if isinstance(message, Wording) else Wording(str(message))
        super().__init__(str(self.wording), *rest)

    @classmethod
    def of(cls, template: str, **values: Value) -> Self:
        """The error whose sentence is `template` with its `%(name)s` fields filled from
        `values` (scripts/catalogs extracts every `.of(…)` template)."""
        from engine.errors import Wording

        return cls(Wording(template, values))


def described(error: BaseException) -> str:
    """An exception as one line of a report (`pbp poll`, the daemon's log): its kind and text."""
    return f"{type(error).__name__}: {error}"
