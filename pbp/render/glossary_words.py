"""Roles, teams and sides worded in a language other than English (docs/design.md:
Languages — the glossary): the names come from the catalog domain `glossary`
(templates/locale/<code>/LC_MESSAGES/glossary.po, listed in docs/glossary.md), each
looked up under its context (`role`, `side`, `team`, `victory`, `grammar`), so that one
role has one name everywhere. A role is written as a label, without an article and in one
form whoever holds it: an article or an ending that agreed with a hidden role would tell
it. Counts take the catalog's plural forms (its CLDR rule), not English grammar. A word
the catalog lacks is written as English writes it.
"""

from __future__ import annotations

import gettext
from typing import Any, Callable, Iterable, Mapping

from pbp.render import words
from pbp.render.languages import SOURCE_LANGUAGE, translations

_MISSING = "\x00"  # a plural no catalog holds: what gettext answers where it has no entry


class GlossaryWords:
    """The filters of pbp.render.words, in one language."""

    def __init__(self, language: str) -> None:
        self.catalog: gettext.NullTranslations = translations(language)

    def _named(self, context: str, english: str) -> str:
        return self.catalog.pgettext(context, english)

    def role_name(self, role: object) -> str:
        text = words.role_name(role)
        key = text[:1] + text[1:].lower()
        named = self._named("role", key)
        return named if named != key else text

    def a_role(self, role: object) -> str:
        return self.role_name(role)  # a label: no article

    def role_count(self, count: int, role: object) -> str:
        text = words.role_name(role)
        key = f"%(num)d {text[:1]}{text[1:].lower()}"
        if (
            self.catalog.npgettext("role", key, _MISSING, 2) == _MISSING
        ):  # gettext's answer for no entry
            return words.role_count(count, role)
        return self.catalog.npgettext("role", key, _MISSING, count) % {"num": count}

    def roles_counted(self, setup: Mapping[str, int] | Iterable[tuple[str, int]]) -> str:
        pairs = setup.items() if isinstance(setup, Mapping) else setup
        return ", ".join(self.role_count(int(count), role) for role, count in pairs)

    def team_name(self, team: object) -> str:
        text = words.role_name(team)
        return self._named("team", text)

    def side_name(self, side: str, ruleset: str) -> str:
        english = words.side_name(side, ruleset)
        named = self._named("side", english)
        return named if named != english else self.team_name(side)

    def faction_name(self, faction: object) -> str:
        """A faction id (`village`) by its team's name (`Dorf`), a group by its role's; an
        id the glossary lacks as it is."""
        english = words.role_name(faction)
        for context in ("team", "role"):  # a group named by its role (`mason`)
            named = self._named(context, english)
            if named != english:
                return named
        return str(faction)

    def phase_label(self, english: object) -> str:
        """A phase's or a schedule slot's English words (`Night 1`, `each night`)."""
        text = "" if english is None else str(english)
        if not text:
            return text
        named = self._named("schedule", text)
        return named if named != text else self.phase_name(text)

    def ruleset_name(self, ruleset: object) -> str:
        return self._named("ruleset", words.ruleset_name(ruleset))

    def result_path(self, path: object, ruleset: str) -> str:
        return self.victory_path(str(path), ruleset)

    def victory_path(self, path: str, ruleset: str) -> str:
        return self._named("victory", words.victory_path(path, ruleset))

    def and_list(self, names: Iterable[Any]) -> str:
        listed = [str(name) for name in names]
        if len(listed) < 2:
            return "".join(listed)
        return self._named("grammar", "%(first)s and %(last)s") % {
            "first": ", ".join(listed[:-1]),
            "last": listed[-1],
        }

    def side_wins(self, sides: Iterable[str], ruleset: str) -> str:
        names = [self.side_name(str(side), ruleset) for side in sides if str(side).strip()]
        return (
            self._named("grammar", "%(sides)s wins!") % {"sides": self.and_list(names)}
            if names
            else ""
        )

    def phase_name(self, english: str) -> str:
        """A phase as its card words it in English (`Night 1 — the Witch's turn`), its
        words from the glossary (`Nacht 1 — Zug der Hexe`); numbers stay."""
        head, dash, step = english.partition(" — ")
        word, space, number = head.partition(" ")
        head = (
            self._named("phase", word) + space + number
            if number.isdigit()
            else self._named("phase", head)
        )
        return head + dash + (self._named("phase", step) if step else "")

    def phase_globals(
        self, english: Callable[[str, str], str]
    ) -> dict[str, Callable[[str, str], str]]:
        """The templates' `phase_words` and `subject_words` (pbp.render.renderer), from
        `english(ruleset, phase_id)`, the English words, in this language."""
        return {
            "phase_words": lambda ruleset, phase: self.phase_name(english(ruleset, phase)),
            "subject_words": (
                lambda ruleset, phase: self.phase_name(english(ruleset, phase)).replace(" — ", ", ")
            ),
        }

    def filters(self) -> dict[str, Callable[..., Any]]:
        return {
            **words.FILTERS,
            "role": self.role_name,
            "a_role": self.a_role,
            "role_count": self.role_count,
            "roles_counted": self.roles_counted,
            "team": self.team_name,
            "side_name": self.side_name,
            "victory_path": self.victory_path,
            "faction": self.faction_name,
            "phase_label": self.phase_label,
            "ruleset_name": self.ruleset_name,
            "ruleset_label": self.ruleset_name,
            "result_path": self.result_path,
            "and_list": self.and_list,
            "side_wins": self.side_wins,
        }


def filters_in(language: str) -> dict[str, Callable[..., Any]]:
    """The role, team, phase and ruleset filters worded in `language` (the desk's pages
    take them alone: they word no phase by its id)."""
    return dict(words.FILTERS) if language == SOURCE_LANGUAGE else GlossaryWords(language).filters()


def install(environment: Any, language: str) -> None:
    """Give a Jinja environment the role filters worded in `language`: English by
    pbp.render.words, any other language from its glossary catalog, which also words the
    environment's `phase_words` and `subject_words` (set before)."""
    if language == SOURCE_LANGUAGE:
        words.install(environment)
    else:
        wording = GlossaryWords(language)
        environment.filters.update(wording.filters())
        environment.globals.update(wording.phase_globals(environment.globals["phase_words"]))
