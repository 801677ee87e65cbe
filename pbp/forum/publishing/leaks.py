"""The leak check (docs/design.md: Public posts: "it fails the draft when the generated
text holds any hidden fact — a living player's role, team or class, a location, a terminal
result, a token — that the public view does not, and says which").

Hidden facts come from what players privately know, i.e. the engine's per-player views,
never from reading the state directly; public facts come from the public view. Which
fields of a view hold which kind of fact is the ruleset card's declaration
(`RulesetCard.secret_fields`, engine.core.SecretFields); this module knows no field name
of its own. A fact is:
- about someone (`Bob`'s role `seer`, team `red`, class `hacker`): the draft leaks it when
  one line names both the person and the value while the public view does not tie them;
- a place (`C-4`): leaked when the text names it and the public view never does;
- a secret (a token, the General's code): leaked whenever the text holds it.

Player-written text (anonymous messages) is public by the rules and is not checked: the
caller passes where it lies, as (start, end) offsets (pbp.forum.publishing.spans), and exactly those
characters are left out; the same words elsewhere in the text are checked like the rest.
"""

from __future__ import annotations

import re
from collections import abc
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from engine.core import SecretFields
from engine.errors import Wording
from pbp.forum.publishing.spans import follow
from pbp.game.stored import StoredGame
from pbp.storage.drafts import DraftBook, DraftRow
from pbp.storage.host_token import host_token


@dataclass(frozen=True)
class Fact:
    kind: str  # "personal", "place" or "secret"
    value: str
    subject: str | None = None
    key: str = ""


@dataclass(frozen=True)
class Leak:
    fact: Fact
    line: str

    def __str__(self) -> str:
        return str(self.wording)

    @property
    def wording(self) -> Wording:
        """The finding as a Wording: English by `str()`, the desk words it for its host."""
        fact, line = self.fact, repr(self.line.strip())
        if fact.kind == "personal":
            return Wording(
                "the draft names %(subject)s's %(key)s %(value)s, which is not public"
                " (line: %(line)s)",
                {
                    "subject": str(fact.subject),
                    "key": fact.key.replace("_", " "),
                    "value": fact.value,
                    "line": line,
                },
            )
        if fact.kind == "place":
            return Wording(
                "the draft names the location %(value)s, which is not public (line: %(line)s)",
                {"value": fact.value, "line": line},
            )
        return Wording(
            "the draft holds a secret %(key)s (%(value)s), which is not public",
            {"key": fact.key or Wording("value"), "value": fact.value},
        )


def _leaves(
    value: Any,
    names: Mapping[str, str],
    subject: str | None,
    subjects: Sequence[str],
    key: str = "",
) -> list[tuple[str | None, str, str]]:
    """(subject, key, text) for every string or number leaf, depth first in the order the
    value holds them; the subject is the player a record is about: a dict keyed by a player
    name, or a record whose field among `subjects` (the card's) names one. (A resolution's
    leak check walks every player's view: the leaves are gathered into one list, strings
    tested first.)"""
    found: list[tuple[str | None, str, str]] = []
    add = found.append

    def walk(value: Any, subject: str | None, key: str) -> None:
        if isinstance(value, str):
            add((subject, key, value))
        elif isinstance(value, bool) or value is None:
            return
        elif isinstance(value, int):
            add((subject, key, str(value)))
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item, subject, key)
        elif isinstance(value, (dict, abc.Mapping)):
            for field_name in subjects:
                named = value.get(field_name)
                if isinstance(named, str) and named.lower() in names:
                    subject = names[named.lower()]
                    break
            for child_key, child in value.items():
                lowered = str(child_key).lower()
                walk(child, names.get(lowered, subject), lowered)

    walk(value, subject, key)
    return found


def _word(value: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])" + re.escape(value) + r"(?![\w-])", re.IGNORECASE)


def _without(text: str, spans: Iterable[Sequence[int]]) -> str:
    """`text` with each span replaced by one space (its line breaks kept, so no two lines
    of the text become one)."""
    parts, position = [], 0
    for start, end in sorted((int(start), int(end)) for start, end in spans):
        if start < position or end > len(text):
            continue  # overlapping or outside the text: nothing to leave out
        parts += [text[position:start], " " + "\n" * text.count("\n", start, end)]
        position = end
    return "".join(parts) + text[position:]


class LeakCheck:
    """Built once per game state: the hidden facts, and what the public view holds; `fields`
    says where the ruleset's views hold them (its card's `secret_fields`)."""

    def __init__(
        self,
        fields: SecretFields,
        private_views: Mapping[str, Mapping[str, Any]],
        public_view: Mapping[str, Any],
        players: Iterable[str],
        secrets: Iterable[str] = (),
    ):
        self.fields = fields
        self.names = {name.lower(): name for name in players}
        public = _leaves(public_view, self.names, None, fields.subjects)
        self.public_words = {text.lower() for _, _, text in public}
        self.public_pairs = {(s, text.lower()) for s, _, text in public if s}
        facts: dict[tuple[Any, ...], Fact] = {}
        for owner, view in private_views.items():
            owner_name = self.names.get(owner.lower(), owner)
            for subject, key, text in _leaves(view, self.names, owner_name, fields.subjects):
                fact = self._fact(subject, key, text)
                if fact:
                    facts[(fact.kind, fact.subject, fact.value.lower())] = fact
        for secret in secrets:
            if secret:
                facts[("secret", None, secret.lower())] = Fact("secret", secret, key="token")
        self.facts = tuple(facts.values())

    def _fact(self, subject: str | None, key: str, text: str) -> Fact | None:
        fields = self.fields
        if key in fields.secrets and len(text) >= 3:
            return Fact("secret", text, key=key)
        place = self._place(key, text)
        if place is not None or key in fields.places:
            if place is not None and text.lower() not in self.public_words:
                return Fact("place", place, key=key)
            return None
        if key in fields.personal and subject and not text.isdigit() and len(text) >= 3:
            if (subject, text.lower()) not in self.public_pairs and text.lower() not in self.names:
                return Fact("personal", text, subject=subject, key=key)
        return None

    def _place(self, key: str, text: str) -> str | None:
        """The place `text` names, as the rules write it, or None: with the card's
        `place_form`, whatever reads as a place under any field; without it, any value
        of a place field (but a number or a word too short to tell apart)."""
        form = self.fields.place_form
        if form is not None:
            return form(text)
        return text if key in self.fields.places and not text.isdigit() and len(text) >= 3 else None

    def check(self, text: str, player_spans: Iterable[Sequence[int]] = ()) -> list[Leak]:
        """Every hidden fact the text holds, once each, in the order found; the characters
        of `player_spans` (player-written words) are left out."""
        text = _without(text, player_spans)
        text = re.sub(r"\\([^\w\s])", r"\1", text)  # Markdown escapes hide nothing from a reader
        lines = text.splitlines()
        leaks = []
        for fact in self.facts:
            value = _word(fact.value)
            # A pattern that matches no line does not match the whole text either (a line
            # break is a boundary for it): most facts are ruled out by one search.
            if fact.kind == "personal":
                subject = _word(fact.subject or "")
                line = (
                    next((ln for ln in lines if value.search(ln) and subject.search(ln)), None)
                    if value.search(text)
                    else None
                )
            elif fact.kind == "place":
                line = (
                    next((ln for ln in lines if value.search(ln)), None)
                    if value.search(text)
                    else None
                )
            else:
                line = next((ln for ln in lines if fact.value.lower() in ln.lower()), None)
            if line is not None:
                leaks.append(Leak(fact, line))
        return leaks


# --------------------------------------------------------------------------- a game's drafts
def leak_check(game: StoredGame, extra_secrets: Sequence[str] = ()) -> LeakCheck:
    """What players privately know (their views) against the public view, plus tokens.
    Once the game is over nothing of it is secret any more (the end post gives every role
    and every secret action, rooms included): only the tokens still are."""
    over = game.phase is None
    private = {} if over else {name: game.view(name) for name in game.roster.names}
    tokens = list(game.record.tokens.values()) + list(extra_secrets)
    return LeakCheck(
        game.rules.card.secret_fields,
        private,
        game.view(None),
        list(game.record.characters),
        tokens,
    )


def draft_leaks(
    game: StoredGame, book: DraftBook, text: str, spans: Iterable[Sequence[int]]
) -> list[str]:
    """The leak check's findings on a post's text (the host token counts as a secret)."""
    return [str(leak) for leak in leak_check(game, [host_token(game.file)]).check(text, spans)]


def player_spans(row: DraftRow, text: str) -> tuple[tuple[int, int], ...]:
    """Where `text`, the current text of draft `row`, still holds the player-written words of
    the generated draft: a host's edit keeps them only on the lines it left as they were
    (pbp.forum.publishing.spans). A draft stored before spans were kept has none, so all of it
    is checked.
    """
    return follow(row.player_spans, row.generated, text)
