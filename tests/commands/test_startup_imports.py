"""A command imports only what it uses (docs/design.md: Start-up): `pbp --version` and
`pbp --help` load no heavy library and no command's module, `pbp status` and `pbp orders`
on a folder of games load no statistics, plotting, forum or mailbox client, and
`pbp <command> --help` loads that command's module alone. Each runs as a host runs it,
`python -m pbp` in a fresh interpreter, which lists `sys.modules` at its exit."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from importlib import import_module
from pathlib import Path

import pytest

import pbp
from pbp.cli import main
from pbp.command_table import COMMANDS
from tests.fixtures.harness import write_settings

REPO = Path(pbp.__file__).resolve().parent.parent
HEAVY = ("scipy", "numpy", "matplotlib", "inflect", "praw", "imapclient")


# `python -m pbp <argv>`, writing at its exit every module it imported to the file named
# first. (`-X importtime` would not do: it leaves out what `importlib.import_module` loads.)
PROBE = """
import atexit, runpy, sys
listing = sys.argv.pop(1)
atexit.register(lambda: open(listing, "w", encoding="utf-8").write("\\n".join(sys.modules)))
runpy.run_module("pbp", run_name="__main__", alter_sys=True)
"""


def imported(folder: Path, *argv: str) -> set[str]:
    """Every module `python -m pbp <argv>` imported, in a fresh interpreter, by its full
    dotted name."""
    listing = folder / "modules.txt"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(listing), *argv],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return set(listing.read_text(encoding="utf-8").split())


def packages(modules: set[str]) -> set[str]:
    return {module.split(".", 1)[0] for module in modules}


@pytest.mark.parametrize("argv", [["--version"], ["--help"]])
def test_version_and_help_import_no_heavy_library_and_no_command(argv, tmp_path):
    modules = imported(tmp_path, *argv)
    assert packages(modules) & set(HEAVY) == set()
    assert not {module for module in modules if module.startswith(("pbp.commands.", "engine"))}


def test_a_commands_help_imports_that_command_alone(tmp_path):
    modules = imported(tmp_path, "status", "--help")
    assert "pbp.commands.status" in modules
    assert (
        not {f"pbp.commands.{name}" for name in ("balance", "simulate", "demo", "publish")}
        & modules
    )


def test_status_and_orders_on_a_folder_of_both_rulesets_import_no_statistics_plots_or_clients(
    tmp_path,
):
    settings = write_settings(
        tmp_path / "pbp.ini",
        {"pbp": {"data": tmp_path / "data", "from_address": "pbp@games.example"}},
    )
    for game, ruleset, players in (("g1", "infiltration", 6), ("g2", "werewolf", 8)):
        roster = tmp_path / f"{game}.csv"
        roster.write_text(
            "name,email\n" + "".join(f"p{n},p{n}.{game}@example.org\n" for n in range(players))
        )
        assert (
            main(
                [
                    "new-game",
                    "--ruleset",
                    ruleset,
                    "--roster",
                    str(roster),
                    "--seed",
                    "7",
                    "--id",
                    game,
                    "--settings",
                    str(settings),
                ]
            )
            == 0
        )
    status = imported(tmp_path, "status", "--settings", str(settings))
    assert {
        "pbp.commands.status",
        "engine.infiltration",
        "engine.werewolf",
    } <= status  # it did read both games
    orders = imported(tmp_path, "orders", "g2", "--settings", str(settings))
    assert {"pbp.commands.orders", "engine.werewolf"} <= orders
    for modules in (status, orders):
        assert packages(modules) & {"scipy", "numpy", "matplotlib", "praw", "imapclient"} == set()


def test_each_command_in_the_table_registers_its_name_with_the_tables_summary():
    """`pbp --help` lists the table's summaries without importing a command: each must be
    the one its module gives when it registers."""
    for command in COMMANDS:
        commands = argparse.ArgumentParser().add_subparsers()
        import_module(command.module).register(commands)
        assert [(action.dest, action.help) for action in commands._choices_actions] == [
            (command.name, command.summary)
        ], command.module
