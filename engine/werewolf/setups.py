"""Setups (rules: Factions and roles, Setups): the source's role lists, the fill rule,
a host's explicit list, and the seeded deal."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.core import GameSetupError, did_you_mean, phase_rng

MINIMUM_PLAYERS = 8
MAXIMUM_PLAYERS = 40
NINJA_MINIMUM = 14

_EIGHT = ("werewolf", "werewolf", "seer", "witch", "bodyguard", "villager", "villager", "wench")
_TEN = _EIGHT + ("howler", "villager")

SETUPS: dict[int, tuple[str, ...]] = {
    8: _EIGHT,
    9: _EIGHT + ("howler",),
    10: _TEN,
    # 11 is the 10-player game plus the host's pick (option setup_11); see setup_for.
    12: _TEN + ("villager", "weregerbil"),
    # The source's 15-player list holds 14 roles: one Villager added (deliberate).
    15: (
        ("werewolf",) * 3
        + ("howler", "seer", "witch", "bodyguard", "romantic", "wench")
        + ("villager",) * 4
        + ("apothecary",)
        + ("villager",)
    ),
    20: (
        ("werewolf",) * 4
        + ("howler",)
        + ("villager",) * 8
        + ("seer", "witch", "bodyguard", "romantic", "wench", "ninja", "weregerbil")
    ),
}

ELEVENTH_ROLES = ("romantic", "succubus", "werehamster")


def listed_setup(count: int, eleventh: str) -> tuple[str, ...]:
    if count == 11:
        return _TEN + (eleventh,)
    return SETUPS[count]


def setup_for(count: int, eleventh: str) -> tuple[str, ...]:
    """The roles for `count` players (rules: Sizes): a listed setup, or the next smaller one
    plus Villagers (the rule, not an option); above 20, the 20-player list plus one
    Werewolf for every further 4 players, the rest Villagers."""
    if count < MINIMUM_PLAYERS:
        raise GameSetupError(
            f"Werewolf needs at least {MINIMUM_PLAYERS} players for a built-in setup, and this game"
            f" has {count}; add players or give the roles yourself with the option"
            " roles=<role>,<role>,…."
        )
    if count > MAXIMUM_PLAYERS:
        raise GameSetupError(
            f"Werewolf's built-in setups go up to {MAXIMUM_PLAYERS} players, and this game has"
            f" {count}; split the players into two games or give the roles yourself with the option"
            " roles=<role>,<role>,…."
        )
    listed = max(size for size in (*SETUPS, 11) if size <= count)
    wolves = ("werewolf",) * ((count - listed) // 4 if listed == max(SETUPS) else 0)
    return listed_setup(listed, eleventh) + wolves + ("villager",) * (count - listed - len(wolves))


def warnings(roles: Sequence[str]) -> tuple[str, ...]:
    """What the rules accept but advise against (rules: Ninja, meant for 14 players or more)."""
    if "ninja" in roles and len(roles) < NINJA_MINIMUM:
        return (
            (
                f"The role list has a Ninja with {len(roles)} players; the Ninja is meant for games"
                f" of {NINJA_MINIMUM} players or more, so expect a fast, deadly game."
            ),
        )
    return ()


def normalise_role_name(text: str) -> str:
    return " ".join(text.strip().lower().replace("-", " ").replace("_", " ").split())


def parse_role_list(text: str, count: int, known: Sequence[str]) -> tuple[str, ...]:
    """A host's explicit role list (`werewolf, seer, villager, …`), checked against the
    roles this ruleset knows and the number of players."""
    names = tuple(normalise_role_name(part) for part in text.split(",") if part.strip())
    for name in names:
        if name not in known:
            hint = did_you_mean(name, known) or f" Known roles: {', '.join(known)}."
            raise GameSetupError(
                f"The role list names {name!r}, which is not a role of this game.{hint}"
            )
    if len(names) != count:
        raise GameSetupError(
            f"The role list has {len(names)} roles but the game has {count} players; give exactly"
            " one role per player."
        )
    if names.count("mason") == 1:
        raise GameSetupError(
            "The role list has one Mason; Masons come at least two at a time, so add another or"
            " remove it."
        )
    if names.count("romantic") > 1:
        raise GameSetupError(
            "The role list has more than one Romantic; a game has at most one pair of lovers."
        )
    return names


def choose_roles(count: int, options: Mapping[str, Any], known: Sequence[str]) -> tuple[str, ...]:
    if options["roles"]:
        return parse_role_list(options["roles"], count, known)
    return setup_for(count, options["setup_11"])


def deal(roles: Sequence[str], players: Sequence[str], seed: Any) -> dict[str, str]:
    """Rules: roles are dealt at random from the seeded generator."""
    shuffled = list(roles)
    phase_rng(seed, "setup", "deal").shuffle(shuffled)
    return dict(zip(players, shuffled))
