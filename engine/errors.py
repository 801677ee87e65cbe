"""The errors a ruleset raises, each a sentence a person reads (docs/design.md: Engine
contract): a bad order line and a block's every bad line, a setup the rules refuse, a host
action they refuse; and the "Did you mean …?" hint they end with."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence, Union

from engine.folding import fold

# A value is a name or a number, a Wording of its own, or a value the shell words in each
# language (a moment, a span of time: pbp.render.moments.Moment); str() is its English.
Value = Union[str, int, "Wording", object]
NO_HINT = ""  # the empty wording: no "Did you mean …?" to add


@dataclass(frozen=True)
class Wording:
    """An English sentence as a template with named `%(name)s` fields and their values, so
    that the shell can word it in a reader's language (docs/design.md: Refusals in every
    language): the template is a catalog message, and a value is a name (never
    translated), a number, or a Wording of its own (a "Did you mean …?" inside a
    sentence). `str(wording)` is the English sentence."""

    template: str
    params: Mapping[str, Value] = field(default_factory=dict)

    def __str__(self) -> str:
        if not self.params:
            return self.template
        return self.template % {name: str(value) for name, value in self.params.items()}


@dataclass(frozen=True)
class Term:
    """A word a reader's language names, under its catalog `context` (a script's name,
    `Cyrillic` under `script`); `str(term)` is the English word."""

    word: str
    context: str

    def __str__(self) -> str:
        return self.word


class OrderError(ValueError):
    """One bad line in an order block: where it is, what it said, and what to do.

    `str(error)` is the sentence a player reads in their reply, e.g.
    `Line 3: "ATACK guard C" — unknown order "ATACK". Did you mean ATTACK?`

    An error about a repeated line names the earlier one: its `message` holds the field
    `{earlier}`, filled with `earlier` (a line number counted like `line`), so moving the
    error to the line numbers of a whole mail (`moved`) moves both.
    """

    def __init__(self, message: str | Wording, line: int = 0, text: str = "", earlier: int = 0):
        self.wording = message if isinstance(message, Wording) else Wording(message)
        self.message = str(self.wording)
        super().__init__(self.message)
        self.line = line
        self.text = text
        self.earlier = earlier

    @classmethod
    def of(cls, template: str, **params: Value) -> "OrderError":
        """The error whose sentence is `template` with its `%(name)s` fields filled from
        `params`: the template is what a translator words (scripts/catalogs extracts
        every `.of(…)` call's template)."""
        return cls(Wording(template, params))

    def at(self, line: int, text: str) -> "OrderError":
        """The same error placed on a line of the block (parsers raise it placeless)."""
        return type(self)(self.wording, line, text, self.earlier)

    def moved(self, offset: int, text: str | None = None) -> "OrderError":
        """The same error with its line numbers counted `offset` lines further (and its
        quoted line replaced by `text`, when given)."""
        return type(self)(
            self.wording,
            self.line + offset if self.line else 0,
            self.text if text is None else text,
            self.earlier + offset if self.earlier else 0,
        )

    def __str__(self) -> str:
        message = (
            self.message.replace("{earlier}", str(self.earlier)) if self.earlier else self.message
        )
        if self.line:
            return f'Line {self.line}: "{self.text}" — {message}'
        return message


class OrderSyntaxError(OrderError):
    """The line is not an order of the grammar at all (unknown keyword, bad argument form)."""


class IllegalOrderError(OrderError):
    """The line is well formed but not allowed for this sender in this phase."""


class OrderBlockError(ValueError):
    """Every error of one block; a block is accepted whole or rejected whole."""

    def __init__(self, errors: Sequence[OrderError]):
        self.errors = tuple(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


class GameSetupError(ValueError):
    """A game cannot be created from these players / options; the message says why."""


class HostActionError(ValueError):
    """A host action (e.g. a modkill) cannot be done in this state; the message says why.

    Every ruleset's host actions raise this and only this for a refused action, so the
    shell can tell a host's mistake from a bug. Its `wording` lets the shell word it in
    the host's language (`of`, as `OrderError.of`)."""

    def __init__(self, message: str | Wording) -> None:
        self.wording = message if isinstance(message, Wording) else Wording(message)
        super().__init__(str(self.wording))

    @classmethod
    def of(cls, template: str, **params: Value) -> "HostActionError":
        return cls(Wording(template, params))


def closest(word: str, known: Iterable[str]) -> str | None:
    """The known word closest to `word` ignoring case and accents (`jsoe` is close to
    José), spelled as known, or None when none is close."""
    options = list(known)
    close = difflib.get_close_matches(fold(word), [fold(o) for o in options], n=1, cutoff=0.6)
    return next(o for o in options if fold(o) == close[0]) if close else None


def within_reach(word: str, known: Iterable[str]) -> list[str]:
    """The known words nearest to `word` in edits, ignoring case and accents, where a
    swap of two neighbouring letters is one edit (optimal string alignment: `stauts` is
    one edit from both `status` and `stats`); within reach means at most one edit for a
    word of up to four letters, two for a longer one. Every word at the nearest distance
    is offered, the closest in length first, then in the order known."""
    from rapidfuzz.distance import OSA

    folded = fold(word)
    reach = 1 if len(folded) <= 4 else 2
    distances = [
        (OSA.distance(folded, fold(option)), abs(len(option) - len(word)), index, option)
        for index, option in enumerate(dict.fromkeys(known))
    ]
    nearest = min((distance for distance, *_ in distances), default=reach + 1)
    return [option for distance, *_, option in sorted(distances) if distance == nearest <= reach]


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """` Did you mean X?` (or `X or Y?`) for the known words within reach of `word`
    (`within_reach`), else the closest by `closest`, or "" (the end of an error's
    sentence)."""
    return str(suggestion(word, known))


def suggestion(word: str, known: Iterable[str]) -> Wording:
    """`did_you_mean` as a Wording, for an error's `%(hint)s` field (empty: no hint)."""
    options = list(known)
    near = within_reach(word, options) or [found for found in [closest(word, options)] if found]
    if not near:
        return Wording(NO_HINT)
    if len(near) == 1:
        return Wording(" Did you mean %(word)s?", {"word": near[0]})
    return Wording(
        " Did you mean %(words)s or %(word)s?", {"words": ", ".join(near[:-1]), "word": near[-1]}
    )
