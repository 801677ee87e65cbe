"""`pbp show <game> [character] [--svg FILE]` (docs/design.md: The host's view): what the
host knows. For the game: every character (NPCs marked) with its role or class and team,
alive or dead and where, bonds (lovers, known teammates), silences, what its role has left,
and its last orders; for Infiltration also the whole facility map. A substituted
character also says who plays it now and who played it before. For one character: the
same facts, its own map (Infiltration), and every report it was sent so far (for an NPC,
the mails the host received for it: what it saw and what its terminals said).

The facts come from each character's own view through the ruleset card's
`character_summary`, the order log and the outbox; nothing here reads a state directly.
"""

from __future__ import annotations

from argparse import Namespace
from pathlib import Path

import engine
from engine.core import no_board
from pbp.commands._game_command import register_game_command
from pbp.commands.common import open_reader, Subparsers
from pbp.errors import UserError
from pbp.game.create import NPC_WELCOME
from pbp.game.stored import StoredGame, load
from pbp.storage.outbox import outbox_rows
from pbp.render.renderer import FINISHED
from pbp.game.resolution import NPC_REPORT
from pbp.host.orders import for_the_screen
from pbp.forum.thread.thread_status import show_lines as show_thread_lines

REPORT_KINDS = (
    "welcome",
    "report",
    NPC_WELCOME,
    NPC_REPORT,
)  # what a character is told of the game
RULE = "-" * 60


def register(subparsers: Subparsers) -> None:
    register_game_command(
        subparsers,
        "show",
        run=run,
        help=(
            "what the host knows of a game: every character, their orders, the map; or one"
            " character's reports"
        ),
        arguments=[
            (
                "character",
                {
                    "nargs": "?",
                    "help": (
                        "one player or NPC: its facts, its map (Infiltration) "
                        "and every report it was sent"
                    ),
                },
            ),
            (
                "--svg",
                {
                    "metavar": "FILE",
                    "help": (
                        "Infiltration: also write the map (the host's, or the character's) "
                        "as an SVG picture to FILE"
                    ),
                },
            ),
        ],
    )


def character_lines(game: StoredGame, name: str) -> list[str]:
    """One character's facts: its summary from its own view, and its last orders."""
    status = game.rules.status(game.state, name)
    summary = list(game.rules.card.character_summary(game.rules.view(game.state, name))) or [
        f"{status.label or 'no role'}, {'alive' if status.alive else 'dead'}"
        + (", silenced" if status.silenced else "")
    ]
    npc = " (NPC)" if name in game.record.npc_names else ""
    rows = game.file.orders.search(lambda row: row["player"] == name)
    if rows:
        last = rows[-1]
        orders = "; ".join(last["text"].splitlines()) or "(none: the rules' default)"
        said = f"Last orders ({last['phase']}): {orders}"
    else:
        said = "Last orders: none yet"
    return [
        f"{name}{npc}: {summary[0]}",
        *(f"    {line}" for line in summary[1:]),
        *(f"    {line}" for line in players_of(game, name)),
        f"    {said}",
    ]


def players_of(game: StoredGame, name: str) -> list[str]:
    """Who plays a substituted character now, since when, and who played it before; nothing
    for a character its first player still plays (its name is theirs)."""
    handovers = [s for s in game.record.substitutions if s.character == name]
    if not handovers:
        return []
    since = game.rules.card.phase_words(handovers[-1].phase)
    before = ", then ".join(s.left for s in handovers)
    return [f"Played by {handovers[-1].joined} since {since}; before: {before}."]


def game_lines(game: StoredGame) -> list[str]:
    phase = game.phase.id if game.phase else FINISHED
    names = game.record.characters
    lines = [f"Game {game.id} ({game.record.ruleset}), phase {phase}; {len(names)} characters:"]
    for name in names:
        lines += character_lines(game, name)
    return lines + show_thread_lines(game)


def report_lines(game: StoredGame, name: str) -> list[str]:
    """Every report `name` was sent so far, oldest first, without the form and footer."""
    rows = [
        row for row in outbox_rows(game.file) if row.recipient == name and row.kind in REPORT_KINDS
    ]
    lines = [f"Reports so far ({len(rows)}):"]
    for row in sorted(rows, key=lambda row: row.sequence):
        lines += [RULE, f"{row.subject}  [{row.phase}]", "", for_the_screen(row.body).rstrip()]
    return lines


def no_board_refusal(game_id: str, ruleset: str) -> str:
    """Why --svg has nothing to draw for a game, naming the rulesets whose card draws a board."""
    drawn = " and ".join(
        name for name in engine.rulesets() if engine.ruleset(name).card.board_svg is not no_board
    )
    which = f" (only {drawn} games have one)" if drawn else ""
    return (
        f"Game {game_id} is a {ruleset} game, whose rules draw no picture of a board; leave out"
        f" --svg{which}."
    )


def run(args: Namespace) -> int:
    with open_reader(args) as moderator:  # only reads: no lock, never waits
        game = load(moderator, args.game)
        host_view = game.rules.host_view(game.state)  # None: the ruleset draws no map
        if args.svg and host_view is None:
            raise UserError(no_board_refusal(args.game, game.record.ruleset))
        if args.character:
            name = game.character(args.character)
            view = game.rules.view(game.state, name) if host_view else None
            lines = character_lines(game, name)
            tail = report_lines(game, name)
        else:
            view = host_view
            lines, tail = game_lines(game), []
    picture = game.rules.card.board_text(view, str) if view is not None else ""
    if picture:
        lines += ["", picture.rstrip()]
    if tail:
        lines += ["", *tail]
    print("\n".join(lines))
    if args.svg and view is not None:  # --svg with no map was refused above
        try:
            Path(args.svg).write_text(game.rules.card.board_svg(view, str), encoding="utf-8")
        except OSError as error:
            raise UserError(
                f"Cannot write the map to {args.svg}: {error.strerror}; give a writable file path."
            )
        print(f"The map is written to {args.svg}.")
    return 0
