"""`pbp stats [--csv DIR] [--json] [--plot FILE]` (docs/balance.md: Statistics across games):
across the finished games of the data folder, per player (games, wins, roles and teams
played, survival), per role and per team (win rates with Wilson 95 % intervals) and per
setup. A game still running is only counted: its secrets are never read."""

from __future__ import annotations

from argparse import Namespace
import csv
import json
from pathlib import Path

from pbp.commands.common import add_settings_arguments, open_reader, Subparsers
from pbp.errors import UserError
from pbp.stats.finished import finished_games
from pbp.stats.tables import Row, all_tables
from pbp.stats.text import text

COLUMNS = {
    "players": ("player", "games", "wins", "win_rate", "low", "high", "survival", "roles", "teams"),
    "roles": ("ruleset", "role", "games", "wins", "win_rate", "low", "high"),
    "teams": ("ruleset", "team", "games", "wins", "win_rate", "low", "high"),
    "setups": ("setup", "team", "games", "wins", "win_rate", "low", "high"),
}


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "stats", help="statistics across the finished games: players, roles, teams, setups"
    )
    add_settings_arguments(parser)
    parser.add_argument(
        "--csv", metavar="DIR", help="write players.csv, roles.csv, teams.csv and setups.csv to DIR"
    )
    parser.add_argument("--json", action="store_true", help="print the tables as JSON")
    parser.add_argument(
        "--plot", metavar="FILE", help="also draw the win rates per role and team (.svg or .png)"
    )
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    with open_reader(args) as moderator:
        games, running = finished_games(moderator.folder, moderator.rules)
    tables = all_tables(games)
    if args.csv:
        folder = Path(args.csv)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            for name, rows in tables.items():
                write_csv(folder / f"{name}.csv", COLUMNS[name], rows)
        except OSError as error:
            raise UserError(
                f"Cannot write the CSV files to {folder} ({error.strerror}); choose another folder."
            ) from None
    if args.plot:
        from pbp.stats.plot import draw  # matplotlib is loaded only when a plot is asked for

        draw(tables, Path(args.plot))
    if args.json:
        print(
            json.dumps(
                {"finished": len(games), "running": running, **tables}, indent=2, sort_keys=True
            )
        )
    else:
        print(text(tables, len(games), running))
    return 0


def write_csv(path: Path, columns: tuple[str, ...], rows: list[Row]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows(rows)
