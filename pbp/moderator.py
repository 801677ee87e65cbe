"""What every moderator action needs, wired once per process: the data folder (holding the
writer lock), the engines as configured, the templates, the outbox, the clock, and who
listens to a game's life (docs/design.md: Extension points)."""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Callable, Self

from engine.core import Ruleset
from pbp import schedule
from pbp.storage.outbox import Outbox
from pbp.errors import UserError
from pbp.render.languages import language_problem
from pbp.render.renderer import Renderer
from pbp.rulesets import load_ruleset
from pbp.settings import Settings
from pbp.storage.datafolder import DataFolder
from pbp.storage.game_index import EntryOf

# A listener is called inside the game's transaction, so what it writes (the forum's draft
# of the public post) is part of the same durable write:
# after_resolution(moderator, pbp.game.resolution.Resolved)
# after_host_action(moderator, game before, game after, public events JSON)
# after_game_created(moderator, the new game)
Listener = Callable[..., None]


class Moderator:
    # Empty here; a composition root (pbp.composition) plugs the features in.
    after_resolution: tuple[Listener, ...] = ()
    after_host_action: tuple[Listener, ...] = ()
    after_game_created: tuple[Listener, ...] = ()

    def __init__(
        self,
        settings: Settings,
        clock: Callable[[], datetime] = schedule.now,
        folder: DataFolder | None = None,
        entry_of: EntryOf | None = None,
    ):
        """`folder`: the data folder, opened by the caller; else this opens it as the
        writer, its index of deadlines computing entries with `entry_of` (given by the
        composition root, pbp.composition)."""
        if folder is not None and entry_of is not None and folder.index.entry_of is not entry_of:
            raise ValueError("the data folder given was opened with another index entry")
        problem = language_problem(settings.host_language)
        if problem:
            raise UserError(f"Setting [pbp] host_language: {problem}")
        self.settings = settings
        self.clock = clock
        self.folder = folder or DataFolder(settings.data, writer=True, entry_of=entry_of)
        self.renderer = Renderer()
        self._renderers: dict[str, Renderer] = {self.renderer.language: self.renderer}
        self.outbox = Outbox(self.folder, settings.from_address, settings.from_name, clock)

    def renderer_for(self, language: str) -> Renderer:
        """The renderer that writes in `language` (made the first time it is asked for);
        English is `self.renderer`, whoever set it."""
        if language == self.renderer.language:
            return self.renderer
        if language not in self._renderers:
            self._renderers[language] = Renderer(self.renderer.root, language)
        return self._renderers[language]

    def keep_renderers(self, kept: dict[str, Renderer]) -> None:
        """Use and fill the renderers of a longer-lived holder (`pbp run`, once per cycle),
        one per language, each refreshed first: a language's templates are compiled once
        per process, and a template the host edits is re-read from the next cycle on."""
        for renderer in kept.values():
            renderer.refresh()
        kept.setdefault(self.renderer.language, self.renderer)
        self.renderer = kept[self.renderer.language]
        self._renderers = kept

    @property
    def host_renderer(self) -> Renderer:
        """The renderer of mail to the host, in the host's language ([pbp] host_language)."""
        return self.renderer_for(self.settings.host_language)

    def rules(self, name: str) -> Ruleset:
        return load_ruleset(name, self.settings.role_modules, self._modules_base)

    @functools.cached_property
    def _modules_base(self) -> str:
        """Where the settings' role modules are found (asked for with each game loaded)."""
        return str(self.settings.source.parent) if self.settings.source else ""

    def close(self) -> None:
        self.folder.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
