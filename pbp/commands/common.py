"""What the moderator's commands share: where the settings are, opening the data folder."""
from __future__ import annotations

from pbp.moderator import Moderator
from pbp.settings import Settings, load_settings


def add_settings_arguments(parser) -> None:
    parser.add_argument("--settings", metavar="PATH",
                        help="the settings file (default: $PBP_SETTINGS, else ./pbp.ini)")
    parser.add_argument("--data", metavar="DIR", help="the data folder (overrides the settings file)")


def settings_of(args) -> Settings:
    return load_settings(args.settings, args.data)


def open_moderator(args) -> Moderator:
    """The moderator as the one writer of the data folder (a second one gets a clear error)."""
    return Moderator(settings_of(args))
