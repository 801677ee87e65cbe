"""The built-in roles: one module per role, listed in one explicit table (docs/design.md:
Extensibility). Adding a role means adding a module and a line here; a host's extra roles
are passed to `make_ruleset(extra_roles=...)` instead."""

from __future__ import annotations

from engine.werewolf.roles import (
    apothecary,
    bodyguard,
    howler,
    mason,
    ninja,
    rabble_rouser,
    romantic,
    seer,
    succubus,
    villager,
    weregerbil,
    werehamster,
    werewolf,
    wench,
    witch,
)

BUILTIN_ROLES = (
    villager.ROLE,
    seer.ROLE,
    witch.ROLE,
    bodyguard.ROLE,
    apothecary.ROLE,
    wench.ROLE,
    romantic.ROLE,
    ninja.ROLE,
    rabble_rouser.ROLE,
    mason.ROLE,
    succubus.ROLE,
    werewolf.ROLE,
    howler.ROLE,
    werehamster.ROLE,
    weregerbil.ROLE,
)

# Night 0 has one step of its own (rules: Order grammar, N0): the Romantic's choice.
FIRST_NIGHT_STEPS = (romantic.choose_lover,)
