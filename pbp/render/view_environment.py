"""The Jinja environment of pbp's templates (docs/design.md: One gate), for the mail
renderer (pbp.render.renderer) and the forum's posts (pbp.forum.publishing.post_renderer)."""

from __future__ import annotations

from typing import Any, MutableMapping

from jinja2 import Environment


# What a plain dict answers as an attribute; any other name a template looks up on a dict
# (`form.phase`) can only be one of its keys.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class ViewEnvironment(Environment):
    """A Jinja environment for templates fed plain dicts (views, forms, facts), made cheaper
    for the many small mails an ingest renders (a receipt each) where Jinja's own costs were
    larger than the template's. What a template reads is what Jinja gives it. Its globals
    are all set before the first template is loaded."""

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        # Jinja chains a template's globals to the environment's: each render copies the
        # chain into a dict, and each `{% import %}` compares two chains, key by key.
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        # `x.name` is an attribute first, a key only after the attribute lookup raised: on
        # a dict, where every name but dict's own is a key, that exception is spared.
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass  # Jinja's own lookup makes the undefined value
        return super().getattr(obj, attribute)
