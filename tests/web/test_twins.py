"""The twin table (pbp.web.twins; docs/design.md: The host's desk in the browser): every
command of `pbp` is reading, writing with a twin on the desk, or writing without one for
a stated reason; each twin's endpoint and its command call the same operation."""

from __future__ import annotations

from importlib import import_module

from pbp.command_table import COMMANDS
from pbp.web.app import make_app
from pbp.web.twins import READING, TWINS, WITHOUT_TWIN


def operation_of(path: str):
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


def names_called(code) -> set[str]:
    """The global names a function's code (and the code of the functions it defines) uses."""
    names = set(code.co_names)
    for constant in code.co_consts:
        if hasattr(constant, "co_names"):
            names |= names_called(constant)
    return names


def reaches(module, operation) -> bool:
    """`module` holds `operation` by its name, or the module it comes from (`review.edit`)."""
    home = import_module(operation.__module__)
    return getattr(module, operation.__name__, None) is operation or any(
        value is home for value in vars(module).values()
    )


def called_in(module, name: str) -> bool:
    """Some function defined in `module` calls `name`."""
    return any(
        name in names_called(value.__code__)
        for value in vars(module).values()
        if callable(value)
        and getattr(value, "__module__", None) == module.__name__
        and hasattr(value, "__code__")
    )


def test_every_command_is_reading_or_has_a_twin_or_a_reason():
    twinned = [twin.command for twin in TWINS]
    for command in COMMANDS:
        homes = [command.name in READING, command.name in twinned, command.name in WITHOUT_TWIN]
        assert homes.count(True) == 1, (
            f"`pbp {command.name}` must be in exactly one list of pbp.web.twins"
        )
    known = {command.name for command in COMMANDS}
    assert READING | set(twinned) | set(WITHOUT_TWIN) <= known, (
        "the table names a command pbp does not have"
    )
    assert all(reason.strip() for reason in WITHOUT_TWIN.values())


def test_each_twin_calls_the_operation_its_command_calls(site):
    app = make_app(site.settings())
    modules = {command.name: command.module for command in COMMANDS}
    rules = {rule.endpoint: rule for rule in app.url_map.iter_rules()}
    for twin in TWINS:
        operation = operation_of(twin.operation)
        name = operation.__name__
        command_module = import_module(modules[twin.command])
        assert reaches(command_module, operation), (
            f"`pbp {twin.command}` does not reach {twin.operation}"
        )
        view = app.view_functions[twin.endpoint]
        assert reaches(import_module(view.__module__), operation), (
            f"{twin.endpoint} imports another {name}"
        )
        assert name in names_called(view.__code__), f"{twin.endpoint} does not call {name}"
        assert called_in(command_module, name), f"`pbp {twin.command}` does not call {name}"
        assert rules[twin.endpoint].rule == twin.route and "POST" in rules[twin.endpoint].methods
