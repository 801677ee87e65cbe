"""`evolve`: a copy of one of the state's frozen values with some fields changed."""

from __future__ import annotations

from dataclasses import fields
from functools import cached_property
from typing import Any, TypeVar

_Value = TypeVar("_Value")


def evolve(value: _Value, **changes: Any) -> _Value:
    """A copy of one of the state's frozen values with `changes`: `dataclasses.replace`
    without its checks, because a game's resolutions make hundreds of these and `replace`
    spent more time checking its arguments than copying. The copy keeps the cached values
    the kind's `CARRIED` names (cached value -> the fields it is made from) while none of
    those fields changes, and no other cached value: those belong to the old value."""
    kind = type(value)
    key = (kind, tuple(changes))
    if key not in _DROPPED:
        _DROPPED[key] = _dropped(kind, changes.keys())
    attributes = dict(value.__dict__)
    attributes.update(changes)
    for cached in _DROPPED[key]:
        attributes.pop(cached, None)
    copy = object.__new__(kind)
    object.__setattr__(copy, "__dict__", attributes)  # frozen: past the dataclass's own __setattr__
    return copy


def _dropped(kind: type, changed: Any) -> tuple[str, ...]:
    """The cached values of `kind` that a copy with the `changed` fields does not keep;
    a TypeError for a field `kind` does not have."""
    names = {field.name for field in fields(kind)}
    unknown = sorted(set(changed) - names)
    if unknown:
        raise TypeError(f"{kind.__name__} has no field {unknown[0]!r}")
    carried = getattr(kind, "CARRIED", {})
    cached = [
        name
        for klass in kind.__mro__
        for name, attribute in vars(klass).items()
        if isinstance(attribute, cached_property)
    ]
    return tuple(
        name for name in cached if name not in carried or not set(carried[name]).isdisjoint(changed)
    )


# For each kind of value and set of changed fields (as `evolve` is called: a few call sites),
# the cached values a copy drops. Facts about classes, never about a game.
_DROPPED: dict[tuple[type, tuple[str, ...]], tuple[str, ...]] = {}
