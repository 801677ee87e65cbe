"""Mason (rules: Night, Masons): Masons know each other; no action."""

from engine.werewolf.model import VILLAGE, Role

ROLE = Role(
    name="mason",
    faction=VILLAGE,
    knows_role=True,
    summary="You know the other Masons and they know you; you have no night action.",
)
