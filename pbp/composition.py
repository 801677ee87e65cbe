"""The composition root's wiring (docs/design.md: Extension points): the moderator with the
forum plugged in as the listener of every resolution and host action. The commands, the
daemon and the demo open this one; the game package never names the forum."""
from __future__ import annotations

from typing import Any

from pbp.forum import hooks as forum_hooks
from pbp.game.index_entry import entry_of
from pbp.moderator import Listener, Moderator


class ForumModerator(Moderator):
    after_resolution: tuple[Listener, ...] = (forum_hooks.after_resolution,)
    after_host_action: tuple[Listener, ...] = (forum_hooks.after_host_action,)
    after_game_created: tuple[Listener, ...] = (forum_hooks.after_game_created,)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.folder.index.entry_of = entry_of  # the index of deadlines computes its entries
