"""The `pbp` command line: dispatch to one module per sub-command.

Errors a host sees are one line and a non-zero exit, never a traceback.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn
from importlib import import_module, metadata

from engine.core import did_you_mean

from pbp.errors import UserError
from pbp.terminal import VisibleText, visible

# Each module defines `register(subparsers)`, adding its parser with `set_defaults(run=...)`.
COMMAND_MODULES = (
    "pbp.commands.simulate",
    "pbp.commands.balance",
    "pbp.commands.stats",
    "pbp.commands.init",
    "pbp.commands.auth",
    "pbp.commands.new_game",
    "pbp.commands.open_game",
    "pbp.commands.start",
    "pbp.commands.poll",
    "pbp.commands.run",
    "pbp.commands.service",
    "pbp.commands.status",
    "pbp.commands.advance",
    "pbp.commands.demo",
    "pbp.commands.draft",
    "pbp.commands.publish",
    "pbp.commands.orders",
    "pbp.commands.show",
    "pbp.commands.extend",
    "pbp.commands.pause",
    "pbp.commands.resume",
    "pbp.commands.substitute",
    "pbp.commands.submit",
    "pbp.commands.modkill",
    "pbp.commands.replay",
    "pbp.commands.options",
    "pbp.commands.rules",
    "pbp.commands.channel",
    "pbp.commands.reply",
)


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
            choices = ", ".join(map(str, action.choices))
            hint = did_you_mean(str(value), map(str, action.choices)) or f" Choose from {choices}."
            raise argparse.ArgumentError(action, f"{value!r} is not known.{hint}")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineErrors(prog="pbp", description="A moderator for hidden-role games played by post. "
                                                   "`pbp <command> --help` tells more about each command.")
    parser.add_argument("--version", action="version", version=f"pbp {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="<command>")
    for name in COMMAND_MODULES:
        import_module(name).register(subparsers)
    return parser


def _version() -> str:
    """The installed distribution's version (pyproject.toml), or "unknown" when pbp runs
    from a checkout that was never installed."""
    try:
        return metadata.version("pbp")
    except metadata.PackageNotFoundError:
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
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
        print(f"pbp: unexpected error ({type(error).__name__}: {visible(str(error))}); "
              "please report it with the command you ran.", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
