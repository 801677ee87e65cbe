"""The forum settings: `[forum]`, `[reddit]` and `[discourse]` in the settings file
(templates/settings.example.ini documents each key), read from the same file as the rest of
pbp's settings."""

from __future__ import annotations

import configparser
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from pbp.errors import UserError
from pbp.forum.publishing.dialects import DIALECTS
from pbp.forum.site_settings import MODES, DiscourseSettings, RedditSettings
from pbp.settings import Settings

PUBLISHERS = ("files", "reddit", "discourse")


@dataclass(frozen=True)
class ForumSettings:
    publisher: str = "files"  # the embedded default: a file per post
    dialect: str = "markdown"
    posts_folder: Path = Path("posts")
    auto_publish: bool | str = (
        False  # True: every draft that passes the check; "tally": running counts only
    )
    reddit: RedditSettings | None = None
    discourse: DiscourseSettings | None = None
    watch_interval: float = 600.0  # seconds between two reads of a game's thread


def _auto_publish(text: str) -> bool | str:
    """`[forum] auto_publish`: on, off, or tally (only running vote counts)."""
    if text.strip().lower() == TALLY_ONLY:
        return TALLY_ONLY
    try:
        return _flag(text, "[forum] auto_publish")
    except UserError:
        raise UserError(
            f"Setting [forum] auto_publish = {text!r} is not on, off or tally; fix the settings"
            " file."
        ) from None


TALLY_ONLY = "tally"


def _flag(text: str, where: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "on", "yes", "true"):
        return True
    if value in ("0", "off", "no", "false", ""):
        return False
    raise UserError(f"Setting {where} = {text!r} is not on or off; fix the settings file.")


def _seconds(text: str, where: str) -> float:
    try:
        value = float(text.strip())
    except ValueError:
        value = -1.0
    if value < 0:
        raise UserError(
            f"Setting {where} = {text!r} is not a number of seconds; fix the settings file."
        )
    return value


def _secret(section: Mapping[str, str], key: str, base: Path, what: str) -> str:
    """`key`, or the first line of the file `<key>_file` names (kept out of the settings)."""
    value: str = section.get(key, "")
    if section.get(f"{key}_file", "").strip():
        path = Path(section[f"{key}_file"].strip())
        path = path if path.is_absolute() else base / path
        try:
            value = path.read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, IndexError):
            raise UserError(
                f"Cannot read the {what} from {path}; put it on the file's first line."
            ) from None
    return value.strip()


def _reddit(parser: configparser.ConfigParser, base: Path) -> RedditSettings:
    """The [reddit] section, checked: how pbp logs in to Reddit and where it posts."""
    section = parser["reddit"] if parser.has_section("reddit") else {}
    password = _secret(section, "password", base, "Reddit password")
    mode = section.get("mode", "thread").strip().lower()
    if mode not in MODES:
        raise UserError(
            f"Setting [reddit] mode = {mode!r} is not one of thread, posts; fix the settings file."
        )
    if not section.get("subreddit", "").strip():
        raise UserError("Setting [reddit] subreddit is empty; name the subreddit pbp posts to.")
    if not section.get("site", "").strip() and not section.get("client_id", "").strip():
        raise UserError(
            "Set [reddit] site (a praw.ini section) or client_id, client_secret, username "
            "and password so pbp can log in to Reddit."
        )
    return RedditSettings(
        subreddit=section.get("subreddit", "").strip(),
        mode=mode,
        site=section.get("site", "").strip(),
        client_id=section.get("client_id", "").strip(),
        client_secret=section.get("client_secret", "").strip(),
        username=section.get("username", "").strip(),
        password=password,
        user_agent=section.get("user_agent", "").strip() or RedditSettings.user_agent,
        timeout=float(section.get("timeout", "16") or 16),
        oauth_url=section.get("oauth_url", "").strip(),
        reddit_url=section.get("reddit_url", "").strip(),
    )


def _discourse(parser: configparser.ConfigParser, base: Path) -> DiscourseSettings:
    section = parser["discourse"] if parser.has_section("discourse") else {}
    url = section.get("url", "").strip()
    if not url.startswith(("https://", "http://")):
        raise UserError(
            "Setting [discourse] url must be the forum's address, such as"
            " https://forum.example.org."
        )
    username = section.get("api_username", "").strip()
    key = _secret(section, "api_key", base, "Discourse API key")
    if not username or not key:
        raise UserError(
            "Set [discourse] api_username and api_key (or api_key_file) so pbp can post to"
            " Discourse."
        )
    category = section.get("category", "").strip()
    if category and not category.isdigit():
        raise UserError(
            f"Setting [discourse] category = {category!r} is not a category id (a number)."
        )
    return DiscourseSettings(
        url=url,
        api_username=username,
        api_key=key,
        category=int(category) if category else None,
        timeout=_seconds(section.get("timeout", "16") or "16", "[discourse] timeout"),
    )


def load_forum_settings(settings: Settings) -> ForumSettings:
    parser = configparser.ConfigParser(interpolation=None)
    base = settings.data
    if settings.source and Path(settings.source).exists():
        parser.read(settings.source, encoding="utf-8")
        base = Path(settings.source).resolve().parent
    forum = parser["forum"] if parser.has_section("forum") else {}
    publisher = forum.get("publisher", "files").strip().lower()
    if publisher not in PUBLISHERS:
        raise UserError(
            f"Setting [forum] publisher = {publisher!r} is not one of {', '.join(PUBLISHERS)}; fix"
            " the settings file."
        )
    # Discourse renders its own Markdown: its games default to that dialect.
    dialect = (
        forum.get("dialect", "").strip()
        or ("discourse" if publisher == "discourse" else "markdown")
    ).lower()
    if dialect not in DIALECTS:
        raise UserError(
            f"Setting [forum] dialect = {dialect!r} is not one of {', '.join(DIALECTS)}; fix the "
            "settings file."
        )
    folder = Path(forum.get("posts", "").strip() or settings.data / "posts")
    if not folder.is_absolute():
        folder = base / folder
    reddit = _reddit(parser, base) if publisher == "reddit" else None
    discourse = _discourse(parser, base) if publisher == "discourse" else None
    return ForumSettings(
        publisher=publisher,
        dialect=dialect,
        posts_folder=folder,
        auto_publish=_auto_publish(forum.get("auto_publish", "off")),
        reddit=reddit,
        discourse=discourse,
        watch_interval=_seconds(forum.get("watch_interval", "600"), "[forum] watch_interval"),
    )
