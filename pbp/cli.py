"""The `pbp` command line: dispatch to one module per sub-command.

`COMMANDS` names each sub-command, its module and its one-line summary; only the chosen
command's module is imported, so a command loads what it uses and no more (docs/design.md:
Start-up). Errors a host sees are one line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn
from importlib import import_module

from pbp.errors import UserError
from pbp.terminal import VisibleText, visible


class Command(NamedTuple):
    """One sub-command: `pbp <name>`, the module whose `register` makes its parser, and
    the summary `pbp --help` lists for it."""

    name: str
    module: str
    summary: str


# One line per sub-command: its name, its module and the one-line summary `pbp --help`
# lists. A module is imported only when its command is the one run (docs/design.md:
# Start-up); it defines `register(subparsers)`, adding the parser of that name (with the
# same summary) and `set_defaults(run=...)`.
COMMANDS = (
    Command(
        "simulate",
        "pbp.commands.simulate",
        "play many games with scripted players and print statistics",
    ),
    Command(
        "balance",
        "pbp.commands.balance",
        "estimate who wins a setup: win rates with intervals and a plot",
    ),
    Command(
        "stats",
        "pbp.commands.stats",
        "statistics across the finished games: players, roles, teams, setups",
    ),
    Command(
        "init", "pbp.commands.init", "write a settings file (./pbp.ini) and make the data folder"
    ),
    Command(
        "auth",
        "pbp.commands.auth",
        "allow pbp to use the mailbox with OAuth2 (Gmail, Microsoft 365, …)",
    ),
    Command(
        "new-game",
        "pbp.commands.new_game",
        "start a game from a roster and mail every player their welcome",
    ),
    Command(
        "open-game",
        "pbp.commands.open_game",
        "open a game for sign-ups by mail (JOIN <game> <name>)",
    ),
    Command(
        "start", "pbp.commands.start", "start a game open for sign-ups with those who signed up"
    ),
    Command("poll", "pbp.commands.poll", "read new mail once, answer it, and send what is queued"),
    Command(
        "run", "pbp.commands.run", "run the moderator: poll mail, resolve at deadlines, send mail"
    ),
    Command(
        "status",
        "pbp.commands.status",
        "show games, deadlines, orders in, drafts, and mail problems",
    ),
    Command("advance", "pbp.commands.advance", "resolve a game's current phase now"),
    Command("demo", "pbp.commands.demo", "play a whole game by (local) mail with scripted players"),
    Command("draft", "pbp.commands.draft", "review the public post drafts of a game"),
    Command(
        "publish",
        "pbp.commands.publish",
        "publish approved public posts (and read the games' threads)",
    ),
    Command(
        "orders",
        "pbp.commands.orders",
        "show who has sent orders for the current phase, and who has not",
    ),
    Command(
        "show",
        "pbp.commands.show",
        "what the host knows of a game: every character, their orders, the map; or one character's"
        " reports",
    ),
    Command(
        "extend",
        "pbp.commands.extend",
        "move a game's current deadline (by a duration or to a time)",
    ),
    Command("pause", "pbp.commands.pause", "stop a game's deadline until `pbp resume`"),
    Command("resume", "pbp.commands.resume", "restart a paused game with the time it had left"),
    Command("substitute", "pbp.commands.substitute", "hand a player's character to a newcomer"),
    Command(
        "submit",
        "pbp.commands.submit",
        "enter orders for an NPC or a player, through the same parser (or STATUS: where it stands)",
    ),
    Command(
        "modkill",
        "pbp.commands.modkill",
        "remove a character from a game at once, with a public reason",
    ),
    Command(
        "replay",
        "pbp.commands.replay",
        "re-run a game from its order log and check the stored state",
    ),
    Command(
        "web",
        "pbp.commands.web",
        "serve the host's desk in the browser: games, drafts and host actions",
    ),
    Command(
        "options",
        "pbp.commands.options",
        "show or change a game's reminders, early resolution and waiting for publishing",
    ),
    Command(
        "rules",
        "pbp.commands.rules",
        "a ruleset's phase kinds, options, roles or classes, and orders",
    ),
    Command(
        "channel", "pbp.commands.channel", "show a channel's messages, or write to it as an NPC"
    ),
    Command("reply", "pbp.commands.reply", "answer a player's message to the host"),
    Command(
        "backup",
        "pbp.commands.backup",
        "write a snapshot of the data folder to one archive (safe while `pbp run` runs)",
    ),
    Command(
        "restore",
        "pbp.commands.restore",
        "lay a backup out as a new data folder (never over one that holds games)",
    ),
    Command(
        "export",
        "pbp.commands.export",
        "write one game to an archive, to move it to another data folder",
    ),
    Command(
        "import", "pbp.commands.import_game", "load a game `pbp export` wrote into this data folder"
    ),
    Command(
        "upgrade", "pbp.commands.upgrade", "upgrade the data folder to this release's data format"
    ),
    Command(
        "service", "pbp.commands.service", "print a systemd unit that runs `pbp run` as a service"
    ),
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
