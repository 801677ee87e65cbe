"""How a good host writes roles, sides and the host's own reasons (docs/design.md: Public
posts): every template, mail or post, uses these filters, so a role reads the same
everywhere: capitalised ("Villager"), with its article ("a Villager"), counted with its
plural ("2 Werewolves"). The plurals and articles are English grammar, left to `inflect`,
loaded at the first word it is asked for (docs/design.md: Start-up): it takes a second or
more to import, which a command that words no role need not pay.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping

import engine
from engine.core import GameSetupError, RulesetCard

if TYPE_CHECKING:
    import inflect

_ENDS_A_SENTENCE = (".", "!", "?", "…")


def role_name(role: object) -> str:
    """`rabble_rouser` -> `Rabble rouser`, `werewolf` -> `Werewolf` (`Green Warrior` stays)."""
    text = str(role).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@lru_cache(maxsize=None)
def _grammar() -> inflect.engine:
    import inflect

    return inflect.engine()


@lru_cache(maxsize=256)
def _plural(role: str) -> str:
    words = role.replace("_", " ").strip().lower()
    return str(_grammar().plural_noun(words)).capitalize()


def role_count(count: int, role: object) -> str:
    """`2 Masons`, `1 Witch`."""
    return f"{count} {role_name(role) if count == 1 else _plural(str(role))}"


def roles_counted(setup: Mapping[str, int] | Iterable[tuple[str, int]]) -> str:
    """A setup as a host writes it: `1 Bodyguard, 2 Masons, 3 Villagers`."""
    pairs = setup.items() if isinstance(setup, Mapping) else setup
    return ", ".join(role_count(int(count), role) for role, count in pairs)


def a_role(role: object) -> str:
    """`a Villager`, `an Apothecary`; a role of several words (`Green Warrior`) the same."""
    name = role_name(role)
    return str(_grammar().a(name.lower())).split(" ", 1)[0] + " " + name


@lru_cache(maxsize=None)
def _card(ruleset: str) -> RulesetCard | None:
    try:
        return engine.ruleset(ruleset).card
    except GameSetupError:  # a ruleset outside the registry (a test's toy)
        return None


def side_name(side: str, ruleset: str) -> str:
    """A side as its ruleset names it (`the Village`), else `the` and the side's name."""
    card = _card(ruleset)
    return dict(card.side_names if card else ()).get(side) or f"the {role_name(side)}"


def victory_path(path: str, ruleset: str) -> str:
    """How the game ended, in the ruleset's words (`no wolf is left alive`)."""
    card = _card(ruleset)
    return dict(card.victory_paths if card else ()).get(path) or str(path).replace("-", " ")


def side_wins(sides: Iterable[str], ruleset: str) -> str:
    """`The Village wins!`, `The Greens win!`, `The Wolves and the Werehamster win!`: each
    side as its ruleset names it, a single side that is no plural taking `wins`."""
    names = [side_name(str(side), ruleset) for side in sides if str(side).strip()]
    if not names:
        return ""
    joined = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    plural = len(names) > 1 or bool(_grammar().singular_noun(names[0].split()[-1].lower()))
    return f"{joined[0].upper()}{joined[1:]} {'win' if plural else 'wins'}!"


def sentence(text: Any) -> str:
    """The host's own words (a reason) ending in a full stop, unless they already end a
    sentence."""
    words = str(text).strip()
    return words if not words or words.endswith(_ENDS_A_SENTENCE) else words + "."


def and_list(names: Iterable[Any]) -> str:
    """`Alice`, `Alice and Chloé`, `Alice, Bruno and Chloé`: names as a sentence lists them."""
    listed = [str(name) for name in names]
    return " and ".join(filter(None, (", ".join(listed[:-1]), listed[-1]))) if listed else ""


def team_name(team: object) -> str:
    """A team as a label (`green` -> `Green`)."""
    return role_name(team)


def faction_name(faction: object) -> str:
    """A faction as the engine names it (`village`): English prints the id as it is."""
    return str(faction)


def phase_label(words: object) -> str:
    """A phase as its card words it (`Night 1`, `each day's vote`): English as it is."""
    return "" if words is None else str(words)


def result_path(path: object, ruleset: str) -> str:
    """How a game ended as a result records it (`wolves-parity` -> `wolves parity`)."""
    return str(path).replace("-", " ")


def ruleset_name(ruleset: object) -> str:
    """A ruleset as a title names it (`werewolf` -> `Werewolf`)."""
    return str(ruleset).capitalize()


def ruleset_label(ruleset: object) -> str:
    """A ruleset named in passing (`game ww1 (werewolf)`): English writes its id."""
    return str(ruleset)


FILTERS: dict[str, Callable[..., Any]] = {
    "ruleset_name": ruleset_name,
    "ruleset_label": ruleset_label,
    "faction": faction_name,
    "phase_label": phase_label,
    "result_path": result_path,
    "role": role_name,
    "team": team_name,
    "and_list": and_list,
    "a_role": a_role,
    "roles_counted": roles_counted,
    "role_count": role_count,
    "side_wins": side_wins,
    "side_name": side_name,
    "victory_path": victory_path,
    "sentence": sentence,
}


def install(environment: Any) -> None:
    """Give a Jinja environment the filters above (in another language than English,
    pbp.render.glossary_words.install)."""
    environment.filters.update(FILTERS)
