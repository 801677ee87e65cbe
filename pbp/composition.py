"""The composition root's wiring (docs/design.md: Extension points): the moderator with the
features plugged in as the listeners of every resolution and host action (the spectators'
mail, the forum's drafts) and the index of deadlines told what each game waits for. The
commands, the daemon and the demo open this one; the game package names no feature."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Callable

from pbp import schedule
from pbp.game.index_entry import entry_of
from pbp.forum import hooks as forum_hooks
from pbp.moderator import Listener, Moderator
from pbp.settings import Settings
from pbp.signups.spectators import queue_spectator_mail
from pbp.signups.substitutes import released_after_host_action, released_after_resolution
from pbp.storage.datafolder import DataFolder


def open_folder(
    data: Path, writer: bool = True, wait: float = 0.0, on_wait: Callable[[], None] | None = None
) -> DataFolder:
    """The data folder, its index of deadlines computing each game's entry
    (pbp.game.index_entry)."""
    return DataFolder(data, writer=writer, wait=wait, on_wait=on_wait, entry_of=entry_of)


class ComposedModerator(Moderator):
    after_resolution: tuple[Listener, ...] = (
        queue_spectator_mail,
        released_after_resolution,
        forum_hooks.after_resolution,
    )
    after_host_action: tuple[Listener, ...] = (
        forum_hooks.after_host_action,
        released_after_host_action,
    )
    after_game_created: tuple[Listener, ...] = (forum_hooks.after_game_created,)

    def __init__(
        self,
        settings: Settings,
        clock: Callable[[], datetime] = schedule.now,
        folder: DataFolder | None = None,
    ) -> None:
        """`folder`, if given, opened with `open_folder`."""
        super().__init__(settings, clock, folder, entry_of=entry_of)
