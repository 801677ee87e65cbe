"""`pbp init [--data DIR] [--provider gmail|outlook|fastmail|custom]`: write a settings
file and make the data folder (with the embedded transport, the inbox Maildir too); a
provider fills in its IMAP and SMTP servers, ports, TLS mode and login
(pbp.settings.providers)."""

from __future__ import annotations

from argparse import Namespace
from pathlib import Path

import engine
from pbp.errors import UserError
from pbp.settings.providers import MAIL_PRESETS
from pbp.settings import load_settings, settings_path
from pbp.settings.default_file import default_settings_text
from pbp.mail.transport import open_mailbox
from pbp.durable import write_atomically
from pbp.storage.datafolder import DataFolder
from pbp.commands.common import Subparsers

# The next step a new host is shown, with the ruleset a newcomer meets first.
NEW_GAME = f"`pbp new-game --ruleset {engine.DEFAULT_RULESET} --roster roster.csv`"


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "init", help="write a settings file (./pbp.ini) and make the data folder"
    )
    parser.add_argument(
        "--settings", metavar="PATH", help="where to write the settings (default: ./pbp.ini)"
    )
    parser.add_argument(
        "--data", metavar="DIR", default="pbp-data", help="the data folder (default: pbp-data)"
    )
    parser.add_argument("--force", action="store_true", help="overwrite an existing settings file")
    parser.add_argument(
        "--provider",
        choices=tuple(MAIL_PRESETS),
        help=(
            "use this mailbox over IMAP and SMTP (fills in servers, ports and TLS; "
            "default: the embedded Maildir, no mail server)"
        ),
    )
    parser.set_defaults(run=run)


def run(args: Namespace) -> int:
    path = settings_path(args.settings)
    if path.exists() and not args.force:
        raise UserError(f"{path} exists already; edit it, or pass --force to overwrite it.")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(
        path, default_settings_text(args.data, args.provider).encode("utf-8")
    )  # 0600: it will hold passwords
    data = Path(args.data)
    if not data.is_absolute():
        data = path.resolve().parent / data
    with DataFolder(data, writer=True):
        pass
    settings = load_settings(str(path))
    if settings.transport == "maildir":  # the folder orders are read from exists from the start
        open_mailbox(settings)
        print(
            f"Wrote {path} and made the data folder {data}; mail to pbp is read from the Maildir "
            f"{settings.maildir_root / 'inbox'} (new/, cur/, tmp/)."
        )
    else:
        print(f"Wrote {path} and made the data folder {data}.")
    if args.provider:
        preset = MAIL_PRESETS[args.provider]
        print(
            f"Mail: {args.provider} over IMAP ({preset.imap_host}:{preset.imap_port}) and SMTP"
            f" ({preset.smtp_host}:{preset.smtp_port}). Next: set from_address and [imap]/[smtp]"
            f" user; {preset.advice}"
        )
        print(f"Then {NEW_GAME}.")
    else:
        print(f"Next: edit the settings (mail transport), then {NEW_GAME}.")
    return 0
