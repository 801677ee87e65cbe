"""A host's folder for the backup tests: Maildir settings, a roster, one game, and the
CLI's entry function run in this process."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

from pbp.cli import main
from pbp.storage.game_storage import game_tables
from tests.fixtures.harness import write_settings

PLAYERS = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")


class Host:
    def __init__(self, root: Path):
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.settings = root / "pbp.ini"
        self.data = root / "data"
        write_settings(
            self.settings,
            {"pbp": {"data": "data", "transport": "maildir", "from_address": "pbp@games.example"}},
        )

    def pbp(self, *args: str) -> tuple[int, str, str]:
        """(exit status, stdout, stderr) of `pbp <args> --settings <ours>`, run here."""
        out, err = io.StringIO(), io.StringIO()
        before = os.getcwd()
        os.chdir(self.root)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main([*args, "--settings", str(self.settings)])
        finally:
            os.chdir(before)
        return status, out.getvalue(), err.getvalue()

    def ok(self, *args: str) -> str:
        status, out, err = self.pbp(*args)
        assert status == 0, f"pbp {' '.join(args)}: {out}{err}"
        return out

    def new_game(self, game_id: str = "g1") -> None:
        roster = self.root / "roster.csv"
        roster.write_text(
            "name,email,timezone\n"
            + "".join(f"{name},{name.lower()}@example.org,Europe/Berlin\n" for name in PLAYERS),
            encoding="utf-8",
        )
        self.ok(
            "new-game",
            "--ruleset",
            "infiltration",
            "--roster",
            str(roster),
            "--seed",
            "8",
            "--id",
            game_id,
            "--option",
            "reminders=off",
        )

    def record(self, game_id: str = "g1") -> dict:
        return next(iter(game_tables(self.data / "games" / f"{game_id}.json")["game"].values()))

    def outbox(self, game_id: str = "g1") -> list[dict]:
        return list(game_tables(self.data / "games" / f"{game_id}.json").get("outbox", {}).values())

    def files(self) -> dict[str, bytes]:
        """Every file of the data folder but the locks, by relative name."""
        return {
            path.relative_to(self.data).as_posix(): path.read_bytes()
            for path in sorted(self.data.rglob("*"))
            if path.is_file() and not path.name.endswith(".lock")
        }
