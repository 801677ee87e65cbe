"""What a ruleset's card says of the fields of its views (docs/design.md: Engine contract,
the ruleset card): which of them hold what a public post must not tell. The shell's leak
check (docs/design.md: Public posts) reads this declaration and no field name of its own,
so a ruleset's secrets are caught under whatever names its views give them. Imported
through `engine.core`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class SecretFields:
    """Which fields of a ruleset's views hold hidden facts (`RulesetCard.secret_fields`).

    - `personal`: a fact about the character the surrounding record describes (a role, a
      team): it is out when one line of a post names both the character and the value.
    - `places`: a place: it is out when a post names it while the public view never does.
    - `secrets`: a secret in itself (a door code): it is out wherever a post holds it.
    - `place_form(text)`: the place `text` names, written as the rules write places
      (`c4` -> `C-4`), or None when it names none. With it, any value that reads as a
      place is one, under whatever field, and a `places` field's other values are not;
      without it, every value of a `places` field is a place.
    - `subjects`: the fields that name the character a record is about, the first one
      that holds a character's name winning (a record keyed by a character's name is
      about that character too).
    """

    personal: frozenset[str] = frozenset()
    places: frozenset[str] = frozenset()
    secrets: frozenset[str] = frozenset()
    place_form: Callable[[str], str | None] | None = None
    subjects: tuple[str, ...] = ("name",)
