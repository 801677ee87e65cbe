"""The table of `pbp`'s sub-commands (docs/design.md: Start-up): each one's name, the module
that makes its parser and the summary `pbp --help` lists, read by pbp.cli."""

from __future__ import annotations

from typing import NamedTuple


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
