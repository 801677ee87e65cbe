"""Each command of `pbp` against the desk: the commands that only read (their pages show
what they print), the writing commands with a twin on the desk (the route, and the one
operation both run), and the writing commands without one, each with the reason
(docs/design.md: The host's desk in the browser — the twin table). A test holds every
command of pbp.command_table.COMMANDS to one of the three, and each twin to its operation: the
command module and the desk's module hold the same function object."""

from __future__ import annotations

from typing import NamedTuple


class Twin(NamedTuple):
    """A writing command's twin: the desk's endpoint (blueprint.function), its route, and
    the operation (module.function) that the command and the endpoint both call."""

    command: str
    endpoint: str
    route: str
    operation: str


# Commands that change nothing in the data folder (the desk's pages read what they print).
READING = frozenset(
    {"simulate", "balance", "stats", "status", "orders", "show", "replay", "rules", "service"}
)

TWINS = (
    Twin(
        "extend",
        "actions.extend",
        "/games/<game_id>/actions/extend",
        "pbp.host.actions.extend_deadline",
    ),
    Twin("pause", "actions.pause", "/games/<game_id>/actions/pause", "pbp.host.actions.pause_game"),
    Twin(
        "resume",
        "actions.resume",
        "/games/<game_id>/actions/resume",
        "pbp.host.actions.resume_game",
    ),
    Twin(
        "substitute",
        "actions.substitute",
        "/games/<game_id>/actions/substitute",
        "pbp.host.actions.substitute_player",
    ),
    Twin(
        "modkill",
        "actions.modkill",
        "/games/<game_id>/actions/modkill",
        "pbp.host.actions.modkill_character",
    ),
    Twin(
        "submit",
        "orders_form.enter",
        "/games/<game_id>/orders/<character>",
        "pbp.host.actions.submit_orders",
    ),
    Twin(
        "options",
        "actions.options",
        "/games/<game_id>/actions/options",
        "pbp.host.actions.set_options",
    ),
    Twin("start", "starting.start", "/open/<game_id>/start", "pbp.host.actions.start_open_game"),
    Twin(
        "draft",
        "drafts.save",
        "/games/<game>/drafts/<path:phase>/edit",
        "pbp.forum.publishing.review.edit",
    ),
    Twin(
        "draft",
        "drafts.approve",
        "/games/<game>/drafts/<path:phase>/approve",
        "pbp.forum.publishing.review.approve",
    ),
    Twin(
        "draft",
        "drafts.approve_all",
        "/games/<game>/drafts/approve-all",
        "pbp.forum.publishing.review.approve_all",
    ),
    Twin(
        "publish",
        "drafts.publish",
        "/games/<game>/drafts/publish",
        "pbp.forum.publishing.publish.publish_now",
    ),
    Twin(
        "reply", "game.reply", "/games/<game_id>/reply", "pbp.conversations.host_side.reply_command"
    ),
)

WITHOUT_TWIN = {
    "init": (
        "it makes the settings file and the data folder that the desk serves, so it comes first"
    ),
    "auth": (
        "OAuth2 consent runs between the host's browser and the mail provider, and its tokens are "
        "secrets the desk never holds"
    ),
    "new-game": (
        "a roster file and a ruleset's options are prepared at the terminal; on the desk a game "
        "comes in through sign-ups and its start button"
    ),
    "open-game": (
        "the announcement it prints is for the host to post; it is prepared at the terminal"
    ),
    "poll": "reading mail is the daemon's work; the desk never talks to the mailbox",
    "run": "it is the daemon itself, which the desk runs beside",
    "demo": "it plays in a data folder of its own (`pbp demo --web` then serves the desk on it)",
    "advance": (
        "resolving now cannot be undone and first reads the forum thread, which can take minutes; "
        "the daemon resolves at the deadline"
    ),
    "channel": "the game page shows the channels; writing as an NPC stays at the terminal for now",
    "web": "it serves the desk",
    "backup": "it writes an archive to a path on the host's machine, as a scheduled job does",
    "restore": "it lays out a new data folder, never the one the desk has open",
    "export": "it writes an archive to a path on the host's machine",
    "import": "it loads an archive from the host's machine into the folder, as an upgrade step is",
    "upgrade": (
        "it reshapes the data folder the desk has open; it runs with the desk and the daemon"
        " stopped"
    ),
}
