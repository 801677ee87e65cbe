"""The composition root's wiring (docs/design.md: Extension points): the moderator with the
features plugged in as the listeners of every resolution and host action (the spectators'
mail, the forum's drafts) and the index of deadlines told what each game waits for. The
commands, the daemon and the demo open this one; the game package names no feature."""
from __future__ import annotations

from typing import Any

from pbp.game.index_entry import entry_of
from pbp.forum import hooks as forum_hooks
from pbp.moderator import Listener, Moderator
from pbp.signups.spectators import queue_spectator_mail


class ForumModerator(Moderator):
    after_resolution: tuple[Listener, ...] = (queue_spectator_mail, forum_hooks.after_resolution)
    after_host_action: tuple[Listener, ...] = (forum_hooks.after_host_action,)
    after_game_created: tuple[Listener, ...] = (forum_hooks.after_game_created,)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.folder.index.entry_of = entry_of  # the index of deadlines computes its entries
