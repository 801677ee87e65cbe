"""The systemd unit for `pbp run` (docs/design.md: Running pbp as a service): the template
shipped with the package (`pbp.service`, beside this module), filled with the absolute path
of the pbp being run, the settings file, the data folder and the user who owns it."""

from __future__ import annotations

import grp
import os
import pwd
import shutil
import sys
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from string import Template

from pbp.errors import UserError
from pbp.settings import Settings

TEMPLATE = "pbp.service"


@dataclass(frozen=True)
class ServiceAccount:
    user: str
    group: str


def owner_of(folder: Path) -> ServiceAccount:
    """The user owning `folder` (the data folder), or this process's user when it does not
    exist yet, and that user's primary group."""
    try:
        uid = folder.stat().st_uid
    except FileNotFoundError:
        uid = os.getuid()
    try:
        account = pwd.getpwuid(uid)
    except KeyError:
        raise UserError(
            f"The data folder {folder} belongs to user id {uid}, who has no account on this "
            "machine; name the user the service runs as with --user."
        ) from None
    return ServiceAccount(account.pw_name, grp.getgrgid(account.pw_gid).gr_name)


def account_named(user: str) -> ServiceAccount:
    try:
        account = pwd.getpwnam(user)
    except KeyError:
        raise UserError(
            f"There is no user {user!r} on this machine; name an existing user with --user."
        ) from None
    return ServiceAccount(account.pw_name, grp.getgrgid(account.pw_gid).gr_name)


def pbp_command() -> list[str]:
    """How to start this very pbp: its `pbp` script when it was started as one, else the
    one beside this Python (a virtual environment's), else this Python with `-m pbp`."""
    started = Path(sys.argv[0]).resolve() if sys.argv and sys.argv[0] else None
    if started is not None and started.name == "pbp" and os.access(started, os.X_OK):
        return [str(started)]
    beside = Path(sys.executable).parent / "pbp"
    if beside.is_file() and os.access(beside, os.X_OK):
        return [str(beside.absolute())]
    found = shutil.which("pbp")
    if found and Path(found).resolve().parent == Path(sys.executable).resolve().parent:
        return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "pbp"]


def unit_text(settings: Settings, account: ServiceAccount, data_given: bool = False) -> str:
    """The unit, for `settings` read from its file (`data_given`: the data folder came from
    `--data`, so the service is started with it too)."""
    if settings.source is None:
        raise UserError(
            "The service needs a settings file; write one with `pbp init` and name it with"
            " --settings."
        )
    data = settings.data.resolve()
    command = [*pbp_command(), "run", "--settings", str(Path(settings.source).resolve())]
    if data_given:
        command += ["--data", str(data)]
    writable = [data, *(path for path in _written_outside(settings, data))]
    template = Template(resources.files(__package__).joinpath(TEMPLATE).read_text(encoding="utf-8"))
    return template.substitute(
        data=_specifiers_escaped(str(data)),
        user=account.user,
        group=account.group,
        exec_start=" ".join(_exec_word(word) for word in command),
        read_write_paths=" ".join(_path_word(path, optional=path != data) for path in writable),
    )


def _written_outside(settings: Settings, data: Path) -> list[Path]:
    """Folders outside the data folder that pbp writes to: the refresh token's, for a
    provider that rotates it."""
    folder = settings.refresh_token_path.resolve().parent
    return [] if folder == data or data in folder.parents else [folder]


def _specifiers_escaped(text: str) -> str:
    return text.replace("%", "%%")


def _quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"' if any(c.isspace() for c in text) or escaped != text else text


def _exec_word(word: str) -> str:
    """One word of ExecStart: systemd expands `$` and `%` there, and splits at spaces."""
    return _quoted(_specifiers_escaped(word).replace("$", "$$"))


def _path_word(path: Path, optional: bool) -> str:
    """One path of ReadWritePaths; `-` lets the service start when it does not exist."""
    return ("-" if optional else "") + _quoted(_specifiers_escaped(str(path)))
