"""`pbp init [--data DIR]`: write a settings file and make the data folder."""
from __future__ import annotations

from pathlib import Path

from pbp.errors import UserError
from pbp.settings import default_settings_text, settings_path
from pbp.storage import write_atomically
from pbp.store import DataFolder


def register(subparsers) -> None:
    parser = subparsers.add_parser("init", help="write a settings file (./pbp.ini) and make the data folder")
    parser.add_argument("--settings", metavar="PATH", help="where to write the settings (default: ./pbp.ini)")
    parser.add_argument("--data", metavar="DIR", default="pbp-data", help="the data folder (default: pbp-data)")
    parser.add_argument("--force", action="store_true", help="overwrite an existing settings file")
    parser.set_defaults(run=run)


def run(args) -> int:
    path = settings_path(args.settings)
    if path.exists() and not args.force:
        raise UserError(f"{path} exists already; edit it, or pass --force to overwrite it.")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, default_settings_text(args.data).encode("utf-8"))  # 0600: it will hold passwords
    data = Path(args.data)
    if not data.is_absolute():
        data = path.resolve().parent / data
    with DataFolder(data, writer=True):
        pass
    print(f"Wrote {path} and made the data folder {data}.")
    print("Next: edit the settings (mail transport), then `pbp new-game --ruleset infiltration --roster roster.csv`.")
    return 0
