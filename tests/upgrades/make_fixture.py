"""Write the upgrade fixture of one release (docs/design.md: Releases and upgrades): a data
folder in which that release left three games in the middle, each with mail in its outbox.

    git worktree add /tmp/pbp-<commit> <commit>
    PYTHONPATH=/tmp/pbp-<commit> python3 tests/upgrades/make_fixture.py tests/upgrades/folders/<commit>
    (writes tests/upgrades/folders/<commit>.tar.gz)
    git worktree remove /tmp/pbp-<commit>

It imports only `pbp` and `engine`, so it runs against the release the PYTHONPATH names.
Everything is seeded and the clock is frozen, so a release writes the same games each time.

- ww1, Werewolf with `votes = thread` on a local Discourse: Night 1 resolved, Day 1 open,
  two players' votes posted in the thread and read by pbp, a watcher confirmed; Day 1's
  mail is still in the outbox.
- inf1, Infiltration with an NPC played by the host: turn 0 (class choice) resolved, the
  first movement phase open, one player's orders in; its mail still in the outbox.
- ww2, Werewolf open for sign-ups: two players signed up, a third waiting for their code.

Beside the data folder: `pbp.ini` (its `[discourse] url` is rewritten by the test for its
own server) and `forum.json`, the local Discourse's topics and posts.
"""

from __future__ import annotations

import email
import hashlib
import json
import os
import random
import secrets
import shutil
import sys
import time
from dataclasses import asdict
from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from pathlib import Path

SEED = "1"
PLAYERS = ("Alice", "Bruno", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana")
BOT = "pbp"
API_KEY = "fixture-key"
FORUM_PORT = 47311


class Clock:
    """The moderator's clock: frozen, moved only by the script."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)

    def __call__(self) -> datetime:
        return self.now


def seeded_randomness() -> None:
    """Tokens, codes and keys from a seeded generator: the same fixture each time."""
    random.seed(SEED)  # MIME boundaries
    generator = random.Random(SEED)
    secrets.choice = generator.choice  # type: ignore[assignment]
    secrets.token_hex = lambda n=16: "%0*x" % (2 * n, generator.getrandbits(8 * n))  # type: ignore[assignment]
    secrets.token_urlsafe = lambda n=16: secrets.token_hex(n)  # type: ignore[assignment]
    import email.utils
    import pbp.mail.maildir

    ticks = iter(range(1_772_442_000_000_000_000, 1_872_442_000_000_000_000, 1_000_000))

    class Ticking:
        """The clock Maildir file names and Message-IDs are made from: one tick a call."""

        def __getattr__(self, name: str) -> object:
            return getattr(time, name)

        def time_ns(self) -> int:
            return next(ticks)

        def time(self) -> float:
            return next(ticks) / 1e9

    pbp.mail.maildir.time = email.utils.time = Ticking()  # type: ignore[attr-defined]
    os.getpid = lambda: 1


def settings_text(url: str) -> str:
    return (
        f"[pbp]\ndata = data\ntransport = maildir\nfrom_address = pbp@fixture.invalid\n"
        f"replies_per_sender_per_day = 10000\n\n[forum]\npublisher = discourse\nauto_publish = on\n"
        f"host_address = host@fixture.invalid\n\n[discourse]\nurl = {url}\napi_username = {BOT}\n"
        f"api_key = {API_KEY}\n"
    )


def mail(sender: str, to: str, subject: str, body: str) -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    digest = hashlib.sha256(f"{sender}{subject}{body}".encode()).hexdigest()[:12]
    message["Message-ID"] = f"<{digest}@players.invalid>"
    message.set_content(body)
    return message.as_bytes()


def confirm_code(root: Path, address: str, name: str, subject: str) -> None:
    """Reply to the one code mail `address` was sent about a game (a sign-up's or a
    watch's), whose subject starts with `subject`; the player's other mail stays unread."""
    from pbp.demo.players import reply_to
    from pbp.mail.maildir import deliver

    folder = root / address
    for path in sorted((folder / "new").iterdir()):
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if str(message["Subject"]).startswith(subject):
            path.rename(folder / "cur" / f"{path.name}:2,S")
            deliver(root / "inbox", reply_to(message, name, address, "").as_bytes())
            return
    raise AssertionError(f"no mail to {address} about {subject}")


def main(out: Path) -> None:
    seeded_randomness()
    from pbp.composition import ComposedModerator
    from pbp.daemon.cycle import Cycle
    from pbp.demo import _answer_mail
    from pbp.demo.discourse_server import LocalDiscourse
    from pbp.demo.thread import DemoForum
    from pbp.forum.thread.watch import ThreadWatch
    from pbp.game.create import create_game
    from pbp.game.record_parts import Npc, RosterPlayer
    from pbp.game.resolution import resolve_phase
    from pbp.game.stored import load
    from pbp.mail.maildir import deliver
    from pbp.mail.transport import open_mailbox, open_sender
    from pbp.settings import load_settings
    from pbp.signups.opening import open_for_signups

    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    # One port for the forum, so the posts' addresses pbp stores are the same each time.
    server = LocalDiscourse(username=BOT, api_key=API_KEY, port=FORUM_PORT).start()
    (out / "pbp.ini").write_text(settings_text(server.url), encoding="utf-8")
    settings = load_settings(str(out / "pbp.ini"))
    root = settings.maildir_root
    clock = Clock()
    forum = DemoForum(server, out / "pbp.ini", ThreadWatch())
    roster = [
        RosterPlayer(name, f"{name.lower()}@players.invalid", forum_name=name.lower())
        for name in PLAYERS
    ]
    with ComposedModerator(settings, clock=clock) as moderator:
        cycle = Cycle(moderator, open_mailbox(settings), open_sender(settings))
        try:
            ww1 = create_game(
                moderator,
                "werewolf",
                roster,
                seed=SEED,
                schedule_text="default=1d",
                options={"votes": "thread", "spectators": "all"},
                game_id="ww1",
            )
            inf1 = create_game(
                moderator,
                "infiltration",
                roster[:5],
                npcs=[Npc("Raiden", "renegade", "neutral")],
                seed=SEED,
                schedule_text="default=1d",
                game_id="inf1",
            )
            cycle.send()
            forum.publish(moderator)
            deliver(
                root / "inbox",
                mail("watcher@players.invalid", "pbp@fixture.invalid", "watch", "WATCH ww1\n"),
            )
            cycle.poll()
            cycle.send()
            confirm_code(root, "watcher@players.invalid", "Watcher", "[ww1]")
            ww2 = open_for_signups(moderator, "ww2", "werewolf", "8..10", "7d", seed=SEED)
            for name in PLAYERS[:2]:
                address = f"{name.lower()}@players.invalid"
                deliver(
                    root / "inbox",
                    mail(address, "pbp@fixture.invalid", "join", f"JOIN {ww2.id} {name}\n"),
                )
            cycle.poll()
            cycle.send()
            for name in PLAYERS[:2]:
                confirm_code(root, f"{name.lower()}@players.invalid", name, "[ww2]")
            answered: dict[str, dict[str, set[str]]] = {
                g.id: {p.name: set() for p in roster} for g in (ww1, inf1)
            }
            heard: dict[str, set[tuple[str, str]]] = {p.name: set() for p in roster}

            def play_phase(*game_ids: str) -> None:
                """Every player answers the open phase's form in each game; then each is
                resolved (at its deadline), and what its next phase mails stays in the outbox."""
                for _ in range(4):
                    cycle.send()
                    for game_id in game_ids:
                        game = load(moderator, game_id)
                        for index, entry in enumerate(game.roster):
                            if forum.post_votes(
                                moderator, game, entry, answered[game_id][entry.name], SEED
                            ):
                                continue
                            _answer_mail(
                                moderator,
                                game,
                                entry,
                                answered[game_id][entry.name],
                                heard[entry.name],
                                SEED,
                                quote=index % 2 == 1,
                            )
                    cycle.poll()
                clock.now += timedelta(hours=1)
                for game_id in game_ids:
                    game = load(moderator, game_id)
                    assert game.phase is not None
                    resolve_phase(moderator, game_id, game.phase.id)

            play_phase("inf1")  # turn 0: the class choice
            play_phase("ww1", "inf1")  # Night 1, and turn 1's movement: its decision phase is open
            forum.publish(moderator)  # Day 1's post opens the vote in the thread
            day = load(moderator, "ww1")
            for entry in day.roster.players[:2]:
                forum.post_votes(moderator, day, entry, set(), SEED)
            ThreadWatch().run(moderator)  # pbp reads the two votes
            deliver(
                root / "inbox",
                mail("chen@players.invalid", "pbp@fixture.invalid", "join", "JOIN ww2 Chen\n"),
            )
            cycle.poll()  # Chen's code mail, and both games' next phase, stay in the outbox
        finally:
            cycle.close()
    forum_state = {
        "topics": [asdict(t) for t in server.topics.values()],
        "posts": [asdict(p) for p in server.posts.values()],
        "clock": server.clock,
    }
    (out / "forum.json").write_text(
        json.dumps(forum_state, indent=1, sort_keys=True), encoding="utf-8"
    )
    server.stop()
    (out / "pbp.ini").write_text(settings_text("http://127.0.0.1:1"), encoding="utf-8")
    packed(out)


def packed(out: Path) -> None:
    """The folder as `<out>.tar.gz`, small and the same bytes each time: without the mail
    the players read already and the transport's copies of sent mail, names sorted, times
    and owners zeroed."""
    import gzip
    import tarfile

    mail_root = out / "data" / "mail"
    shutil.rmtree(mail_root / "outbox", ignore_errors=True)
    shutil.rmtree(mail_root / "inbox" / ".processed", ignore_errors=True)
    for read in mail_root.glob("*/cur/*"):
        read.unlink()
    (out / "data" / "game_index.json").unlink()  # an index pbp rebuilds, of the files' inodes
    for lock in (out / "data").glob("*.lock"):
        lock.unlink()

    def zeroed(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
        return info

    with (
        open(out.with_suffix(".tar.gz"), "wb") as file,
        gzip.GzipFile("", "wb", fileobj=file, mtime=0) as archive,
    ):
        with tarfile.open(fileobj=archive, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for path in sorted(out.rglob("*")):
                tar.add(path, arcname=str(path.relative_to(out)), recursive=False, filter=zeroed)
    shutil.rmtree(out)


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
