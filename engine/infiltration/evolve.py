"""`evolve`: a copy of one of the state's frozen values with some fields changed."""
from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

_Value = TypeVar("_Value")


def evolve(value: _Value, **changes: Any) -> _Value:
    """A copy of one of the state's frozen values with `changes`: `dataclasses.replace`
    without its checks, because a game's resolutions make hundreds of these and `replace`
    spent more time checking its arguments than copying. Only the fields are copied, and
    the cached values the kind's `CARRIED` names (cached value -> the fields it is made
    from) while none of those fields changes; no other cached value, which belongs to the
    old value."""
    kind = type(value)
    if kind not in _FIELD_NAMES:
        _FIELD_NAMES[kind] = dict.fromkeys(f.name for f in fields(value))  # type: ignore[arg-type]  # a dataclass
    names = _FIELD_NAMES[kind]
    if not changes.keys() <= names.keys():
        raise TypeError(f"{kind.__name__} has no field {sorted(changes.keys() - names.keys())[0]!r}")
    copy = object.__new__(kind)
    attributes = value.__dict__
    if len(attributes) == len(names):   # the fields alone: nothing cached to leave behind
        copy.__dict__.update(attributes, **changes)
    else:
        copy.__dict__.update({name: attributes[name] for name in names}, **changes)
        for cached, sources in getattr(kind, "CARRIED", {}).items():
            if cached in attributes and changes.keys().isdisjoint(sources):
                copy.__dict__[cached] = attributes[cached]
    return copy


# The field names of each kind of value `evolve` copies (a dict: ordered, and its keys
# compare as a set). Facts about classes, never about a game.
_FIELD_NAMES: dict[type, dict[str, None]] = {}
