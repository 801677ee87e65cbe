"""Romantic (rules: Order grammar N0; Night, Romantic): picks a lover on night 0; both
learn each other; if one dies the other dies at once; they may never nominate or vote for
each other. The bond stays with the original pair even if roles change."""

from __future__ import annotations

from dataclasses import replace

from engine.werewolf.model import VILLAGE, Night, OrderKind, Role, Target
from engine.werewolf.orders import Love


def choose_lover(night: Night) -> Night:
    """N0: the Romantic's LOVE, or a random living player when she sent none. A LOVE of
    someone the host removed tonight keeps its meaning: she is bound to nobody."""
    for romantic in night.actors("romantic"):
        if night.order(romantic.name, Love) is not None:
            lover = night.target_of(romantic.name, Love)
            if lover is None:
                continue
        else:
            others = sorted(c.name for c in night.characters if c.alive and c.name != romantic.name)
            if not others:
                continue
            lover = night.rng(f"love/{romantic.name}").choice(others)
        if night.order(romantic.name, Love) is not None:
            night = night.used("love")
        night = replace(night, lovers=(romantic.name, lover))
        night = night.report(romantic.name, "lovers", lover=lover)
        night = night.report(lover, "lovers", lover=romantic.name)
    return night


ROLE = Role(
    name="romantic",
    faction=VILLAGE,
    summary="On night 0 you pick a lover; if either of you dies, so does the other.",
    orders=(
        OrderKind(
            Love,
            phase_kind="night0",
            target=Target.OTHER,
            note="your lover for the whole game (missing: a random living player)",
        ),
    ),
)
