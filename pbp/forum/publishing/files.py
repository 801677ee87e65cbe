"""The file publisher: one file per post (docs/design.md: Embedded default, "the forum publisher
writes approved posts to files", for forums with no API).

A post is written atomically (temp file, fsync, rename), named by game and phase, so
publishing the same post twice leaves one file with the same bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbp.forum.publishing.dialects import dialect as make_dialect
from pbp.forum.publishing.publisher import Post, Published
from pbp.durable import write_atomically


def _safe_part(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)


class FilePublisher:
    """Writes `<folder>/<game>/<nnn>-<phase>.<ext>`; `nnn` keeps the files in post order.
    The extension is the post's own dialect's (`md`, `bbcode`): each game chooses its
    dialect, so one folder may hold both; `extension` is for a post that names none."""

    def __init__(self, folder: Path, extension: str = "md"):
        self.folder = Path(folder)
        self.extension = extension

    def _extension(self, post: Post) -> str:
        return make_dialect(post.dialect).extension if post.dialect else self.extension

    def _existing(self, post: Post) -> list[Path]:
        game_folder = self.folder / _safe_part(post.game)
        if not game_folder.is_dir():
            return []
        return sorted(game_folder.glob(f"[0-9][0-9][0-9]-{_safe_part(post.phase)}.*"))

    def find(self, post: Post) -> Published | None:
        for path in self._existing(post):
            if post.marker in path.read_text(encoding="utf-8"):
                return Published(ref=path.name, url=path.resolve().as_uri())
        return None

    def publish(self, post: Post) -> Published:
        existing = self._existing(post)
        game_folder = self.folder / _safe_part(post.game)
        game_folder.mkdir(parents=True, exist_ok=True)
        if existing:  # the same phase again (an edited re-approval): replace it in place
            path = existing[0]
        else:
            number = len(list(game_folder.glob("[0-9][0-9][0-9]-*")))
            path = (
                game_folder / f"{number + 1:03d}-{_safe_part(post.phase)}.{self._extension(post)}"
            )
        write_atomically(path, f"{post.title}\n\n{post.text}".encode("utf-8"))
        return Published(ref=path.name, url=path.resolve().as_uri())
