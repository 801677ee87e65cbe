"""The engines as the host configured them: extra Werewolf roles from the modules the
settings name (docs/design.md: Extensibility). The engine never imports anything by name; pbp
imports the host's trusted modules and hands their roles over."""

from __future__ import annotations

import importlib
import importlib.util
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

import engine
from engine.core import GameSetupError, Ruleset
from pbp.errors import UserError


def import_role_module(spec: str, base: Path | None = None) -> ModuleType:
    """A module by dotted name, or a `.py` file (relative to the settings' folder)."""
    if spec.endswith(".py"):
        path = Path(spec)
        if not path.is_absolute() and base is not None:
            path = base / path
        if not path.exists():
            raise UserError(f"The role module file {path} named in [roles] modules does not exist.")
        module_spec = importlib.util.spec_from_file_location(f"pbp_roles_{path.stem}", path)
        if module_spec is None or module_spec.loader is None:  # a path ending in .py always has one
            raise UserError(
                f"The role module file {path} named in [roles] modules cannot be loaded as Python."
            )
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
        return module
    try:
        return importlib.import_module(spec)
    except ImportError as error:
        raise UserError(
            f"Cannot import the role module {spec!r} named in [roles] modules ({error})."
        ) from None


def roles_of(module: ModuleType) -> tuple[Any, ...]:
    if hasattr(module, "ROLES"):
        return tuple(module.ROLES)
    if hasattr(module, "ROLE"):
        return (module.ROLE,)
    raise UserError(f"The role module {module.__name__} defines neither ROLES nor ROLE.")


@lru_cache(maxsize=None)
def load_ruleset(name: str, role_modules: tuple[str, ...] = (), base: str = "") -> Ruleset:
    """`engine.ruleset(name)`, given the host's extra roles when its card accepts them
    (Werewolf's); another ruleset ignores `role_modules`."""
    try:
        if role_modules and engine.ruleset(name).card.accepts_extra_roles:
            extra = tuple(
                role
                for spec in role_modules
                for role in roles_of(import_role_module(spec, Path(base) if base else None))
            )
            return engine.ruleset(name, extra_roles=extra)
        return engine.ruleset(name)
    except GameSetupError as error:
        raise UserError(str(error)) from None
