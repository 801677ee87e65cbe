"""The `pbp` command line: dispatch to one module per sub-command.

`COMMANDS` (pbp.command_table) names each sub-command, its module and its one-line summary;
only the chosen command's module is imported, so a command loads what it uses and no more
(docs/design.md: Start-up). Errors a host sees are one line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any, NoReturn
from importlib import import_module

from pbp.command_table import COMMANDS, Command
from pbp.errors import UserError
from pbp.terminal import VisibleText, visible


class OneLineErrors(argparse.ArgumentParser):
    """A command line that is not understood gets one line too (argparse would print the
    whole usage first), naming the command's help; every sub-command parser is one too.
    A word that is not one of the choices (a command, an action, a ruleset) is answered
    with the nearest one."""

    def error(self, message: str) -> NoReturn:
        joint = " See" if message.endswith(("?", ".")) else "; see"
        self.exit(2, f"{self.prog}: {message}{joint} `{self.prog} --help`.\n")

    # argparse offers no public hook for the message of a word outside `choices`.
    def _check_value(self, action: argparse.Action, value: object) -> None:
        if action.choices is not None and value not in action.choices:
            from engine.core import did_you_mean  # the engine loads only for a mistyped word

            choices = ", ".join(map(str, action.choices))
            hint = did_you_mean(str(value), map(str, action.choices)) or f" Choose from {choices}."
            raise argparse.ArgumentError(action, f"{value!r} is not known.{hint}")


if TYPE_CHECKING:
    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:  # argparse's class is generic only to the type checker
    _SubParsers = argparse._SubParsersAction


class LazyCommands(_SubParsers):
    """argparse's table of sub-commands, holding each command of `COMMANDS` as its name and
    summary only (enough for `pbp --help` and for the nearest-name answer to a mistyped
    one) until the command is chosen: then its module is imported and registers the real
    parser in the placeholder's stead."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._modules: dict[str, str] = {}  # the commands not loaded yet, by name
        self._summarised: set[str] = set()  # the commands whose summary the table gave

    def add_command(self, command: Command) -> None:
        self._modules[command.name] = command.module
        self._summarised.add(command.name)
        super().add_parser(command.name, help=command.summary, add_help=False)

    def load(self, name: str) -> None:
        """Import the module of command `name` and let it register its parser, once."""
        module = self._modules.pop(name, None)
        if module is not None:
            del self._name_parser_map[name]  # the placeholder
            import_module(module).register(self)

    def add_parser(self, name: str, **options: Any) -> argparse.ArgumentParser:
        if name in self._summarised:  # `pbp --help` already lists the table's summary
            options.pop("help", None)
        return super().add_parser(name, **options)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        self.load(values[0])
        super().__call__(parser, namespace, values, option_string)


class VersionWhenAsked(argparse._VersionAction):
    """`--version`, which looks the version up only when it is asked for: reading the
    installed distribution's metadata is a cost every other command would pay."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from pbp.release import pbp_version

        self.version = f"pbp {pbp_version()}"
        super().__call__(parser, namespace, values, option_string)


def build_parser(*, lazy: bool = False) -> argparse.ArgumentParser:
    """The `pbp` parser with every command's own parser, for what walks them all (tests,
    the reference); or, `lazy`, with each command's parser made only when the command is
    chosen, as `main` runs it."""
    parser = OneLineErrors(
        prog="pbp",
        description=(
            "A moderator for hidden-role games played by post. "
            "`pbp <command> --help` tells more about each command."
        ),
    )
    parser.add_argument("--version", action=VersionWhenAsked)
    commands = parser.add_subparsers(dest="command", metavar="<command>", action=LazyCommands)
    assert isinstance(commands, LazyCommands)
    for command in COMMANDS:
        commands.add_command(command)
        if not lazy:
            commands.load(command.name)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(lazy=True)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    # Whatever pbp creates is the host's alone (docs/design.md: Hostile input); the files that
    # hold secrets are also created 0600 explicitly (pbp.durable.open_private).
    previous_umask = os.umask(0o077)
    stdout = sys.stdout
    sys.stdout = VisibleText(stdout)  # player text never reaches the terminal raw (pbp.terminal)
    try:
        return _run(args)
    finally:
        sys.stdout = stdout
        os.umask(previous_umask)


def _run(args: argparse.Namespace) -> int:
    try:
        status = args.run(args) or 0
        sys.stdout.flush()  # a reader that went away shows here, not at the interpreter's exit
        return status
    except UserError as error:
        print(f"pbp: {visible(str(error))}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The output went to a reader that stopped early (`pbp status | head`). What was
        # committed stands (and what was queued is sent by the next cycle); drop the rest
        # of the output quietly, as the Python docs advise, instead of a "report it" line.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except KeyboardInterrupt:
        print("pbp: interrupted.", file=sys.stderr)
        return 130
    except Exception as error:  # the last line of defence: no tracebacks for a host
        print(
            f"pbp: unexpected error ({type(error).__name__}: {visible(str(error))}); "
            "please report it with the command you ran.",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
