"""`pbp run` and the host's commands together (pbp.daemon.run; docs/design.md: Reliability rules —
one writer process per data folder; Deadlines — stored in the game, APScheduler is the
alarm clock).

Each test starts `pbp run` as a real subprocess on the embedded Maildir transport with a
long poll interval (600 s), so whatever happens on time happens because the daemon's
alarm was set from storage, not because a poll came by. The host's commands run as
subprocesses too, while the daemon runs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pbp.cli import main
from pbp.commands import common
from pbp.durable import WriterLock
from pbp.timezones import as_utc
from tests.fixtures.harness import Ground, Sections
from tests.fixtures.waiting import wait_until

pytestmark = pytest.mark.timeout(600)

PLAYERS = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena")
WAITING = "waiting for the running pbp to finish its cycle…"
# Deadlines are stored to the second and the machine may be busy (a loaded CI machine has
# opened a phase 6 s late): "on time" is within 30 s, which still tells an alarm set for
# the deadline from the next poll (600 s away) and from a command that waited for the
# lock (60 s).
ON_TIME = timedelta(seconds=30)
# A wait returns as soon as what it waits for holds; the floor only decides how long a
# failing test takes to say so, and keeps a busy machine from failing a passing one.
LEAST_WAIT = 60.0


class Site(Ground):
    """A host's folder on the harness's ground: settings (Maildir transport), a roster with
    zones and forum names, the data folder."""

    def __init__(self, root: Path, poll_interval: float = 600, more: Sections | None = None):
        super().__init__(root)
        self.write_settings(
            {
                "pbp": {
                    "data": "data",
                    "transport": "maildir",
                    "from_address": "pbp@games.example",
                    "poll_interval": poll_interval,
                },
                **(more or {}),
            }
        )
        self.roster = root / "roster.csv"
        self.roster.write_text(
            "name,email,timezone,forum_name\n"
            + "".join(
                f"{name},{name.lower()}@example.org,Europe/Berlin,{name.lower()}_r\n"
                for name in PLAYERS
            )
        )
        self.daemon: subprocess.Popen | None = None

    def command(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "pbp", *args, "--settings", str(self.settings)]

    def pbp(
        self, *args: str, check: bool = True, env: dict | None = None, timeout: float = 90
    ) -> subprocess.CompletedProcess:
        done = super().pbp(*args, check=False, env=env, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(
                f"pbp {' '.join(args)} failed:\n{done.stdout}{done.stderr}\nlog:\n{self.log()}"
            )
        return done

    def new_game(self, schedule: str, *options: str, game_id: str = "g1") -> None:
        extra = [arg for option in ("reminders=off", *options) for arg in ("--option", option)]
        self.pbp(
            "new-game",
            "--ruleset",
            "infiltration",
            "--roster",
            str(self.roster),
            "--seed",
            "8",
            "--schedule",
            schedule,
            "--id",
            game_id,
            *extra,
        )

    def start(self) -> subprocess.Popen:
        self.daemon = self.start_run()
        self.wait_for(
            lambda: "pbp running" in self.log() and self.state().get("last_cycle"),
            60,
            "pbp run did not finish its first cycle",
        )
        return self.daemon

    def stop(self) -> None:
        if self.daemon and self.daemon.poll() is None:
            self.daemon.terminate()
            try:
                self.daemon.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.daemon.kill()
                self.daemon.wait()

    def state(self) -> dict:
        try:
            return json.loads((self.data / "daemon.json").read_text())
        except (OSError, ValueError):
            return {}

    def outbox(self, game_id: str = "g1", kind: str | None = None) -> list[dict]:
        rows = list(self.tables(game_id).get("outbox", {}).values())
        return [row for row in rows if kind is None or row["kind"] == kind]

    def wait_for(self, condition, timeout: float, what: str):
        return wait_until(condition, max(timeout, LEAST_WAIT), what, self.daemon, self.log)

    def resolved(self, phase: str, timeout: float, game_id: str = "g1") -> dict:
        def done() -> dict | None:
            record = self.record(game_id)
            return record if phase in record["resolved"] else None

        return self.wait_for(done, timeout, f"{phase} was not resolved in {timeout} s")

    def mailed(self, player: str) -> list[bytes]:
        folder = self.data / "mail" / f"{player.lower()}@example.org"
        return [
            path.read_bytes() for sub in ("new", "cur") for path in sorted((folder / sub).glob("*"))
        ]


@pytest.fixture
def site(tmp_path):
    made = []

    def make(**kwargs) -> Site:
        made.append(Site(tmp_path, **kwargs))
        return made[-1]

    yield make
    for one in made:
        one.stop()


def deadline(record: dict) -> datetime:
    return as_utc(record["deadline"])


def opened(record: dict) -> datetime:
    return as_utc(record["opened"])


def deadline_soon(host, seconds: int) -> datetime:
    """Move the open phase's deadline to `seconds` from now, once the daemon runs: a short
    phase set at `new-game` could pass while a loaded machine still starts the daemon. The
    command runs in this process (no interpreter start), well inside the margin."""
    soon = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=seconds)
    with contextlib.redirect_stdout(io.StringIO()):
        assert (
            main(
                [
                    "extend",
                    "g1",
                    soon.strftime("%Y-%m-%d %H:%M:%S UTC"),
                    "--settings",
                    str(host.settings),
                ]
            )
            == 0
        )
    return soon


def test_advance_while_running_resolves_and_the_daemon_keeps_the_next_deadline(site):
    """`pbp advance` works while `pbp run` runs: the phase resolves, every player gets
    their report once; and the daemon, seeing the new phase's deadline in storage,
    resolves that phase on time although its next poll is ten minutes away."""
    host = site()
    host.new_game("class=1h,movement=4s,default=1h")
    host.start()
    done = host.pbp("advance", "g1")
    assert "Resolved g1 T0-class." in done.stdout and WAITING not in done.stderr

    def reports_sent() -> list[dict] | None:
        rows = host.outbox(kind="report")
        return (
            rows if len(rows) == len(PLAYERS) and all(r["status"] == "sent" for r in rows) else None
        )

    reports = host.wait_for(reports_sent, 15, "the reports did not all go out")
    assert sorted(r["recipient"] for r in reports) == sorted(PLAYERS)
    for row in reports:
        assert [
            mail for mail in host.mailed(row["recipient"]) if row["message_id"].encode() in mail
        ]
    movement = host.record()
    assert movement["phase_id"] == "T1-movement"
    after = host.resolved("T1-movement", 15)
    assert timedelta(0) <= opened(after) - deadline(movement) <= ON_TIME
    host.wait_for(
        lambda: "resolved g1 T1-movement" in host.log(), 10, "the daemon did not say it resolved"
    )
    ids = [r["message_id"] for r in host.outbox(kind="report")]
    assert len(ids) == len(set(ids)) == 2 * len(PLAYERS)


def test_new_game_while_running_resolves_at_its_deadline(site):
    """A game started while the daemon runs (it had no deadline to wait for at all)
    resolves at its first deadline."""
    host = site()
    host.start()  # on a data folder with no game yet
    host.new_game("class=3s,default=1h")
    first = host.record()
    assert all(b"BEGIN ORDERS g1 T0-class" in host.mailed(p)[0] for p in PLAYERS)
    after = host.resolved("T0-class", 15)
    assert timedelta(0) <= opened(after) - deadline(first) <= ON_TIME


def test_extend_moves_the_deadline_and_the_daemon_resolves_at_the_new_time(site):
    """`pbp extend` while the daemon sleeps: nothing happens at the old deadline, the
    phase resolves at the new one. The extend runs in this process, as `deadline_soon`
    does: an interpreter started on a loaded machine could miss the old deadline."""
    host = site()
    host.new_game("class=1h,default=1h")
    host.start()
    old = deadline_soon(host, 8)
    assert deadline(host.record()) == old
    said = io.StringIO()
    with contextlib.redirect_stdout(said):
        assert main(["extend", "g1", "5s", "--settings", str(host.settings)]) == 0
    assert "the deadline is now" in said.getvalue()
    new = deadline(host.record())
    assert new == old + timedelta(seconds=5)
    host.wait_for(lambda: datetime.now(old.tzinfo) > old + timedelta(seconds=1.5), 15, "clock")
    assert host.record()["phase_id"] == "T0-class"
    after = host.resolved("T0-class", 15)
    assert timedelta(0) <= opened(after) - new <= ON_TIME


def test_pause_stops_resolution_at_the_old_deadline_and_resume_restarts_it(site):
    host = site()
    host.new_game("class=1h,default=1h")
    host.start()
    old = deadline_soon(host, 6)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["pause", "g1", "--settings", str(host.settings)]) == 0
    host.wait_for(lambda: datetime.now(old.tzinfo) > old + timedelta(seconds=2), 15, "clock")
    record = host.record()
    assert record["phase_id"] == "T0-class" and record["paused"] and not record["resolved"]
    host.pbp("resume", "g1")
    resumed = host.record()
    assert not resumed.get("paused")
    after = host.resolved("T0-class", 15)
    assert timedelta(0) <= opened(after) - deadline(resumed) <= ON_TIME


def test_readers_never_wait_for_the_lock(site, monkeypatch, capsys):
    """While the writer lock is held (as during a long cycle), `pbp status`, `pbp orders`,
    `pbp draft show` and `pbp replay` answer, from whole files. By construction: the test
    holds the lock from before the first reader starts until after the last one has
    returned, and releases it explicitly; the readers run in this process (no interpreter
    start-up to wait for) with PBP_LOCK_WAIT=0, so a reader that wanted the lock would
    fail at once instead of waiting. The module's timeout is only a safety net."""
    host = site()
    host.new_game("class=1h,default=1h")
    host.pbp("advance", "g1")  # makes a draft to show
    host.start()
    monkeypatch.setenv(common.LOCK_WAIT_VARIABLE, "0")
    answers = []
    lock = WriterLock(host.data).acquire(wait=60)  # the daemon may still be closing its first cycle
    try:
        for args in (("status",), ("orders", "g1"), ("draft", "show", "g1"), ("replay", "g1")):
            code = main([*args, "--settings", str(host.settings)])
            answers.append((args, code, *capsys.readouterr()))
        # The control: a writer in the same conditions is refused at once, so the readers'
        # answers above cannot have come from taking the lock.
        assert main(["pause", "g1", "--settings", str(host.settings)]) == 2
        assert "is in use by pbp process" in capsys.readouterr().err
        assert lock.held  # every reader has returned and the lock was never let go
    finally:
        lock.release()
    for (args, code, out, err), expected in zip(
        answers,
        ("phase T1-movement", "No orders yet", "Draft T0-class", "reproduces the stored game"),
    ):
        assert code == 0 and expected in out and WAITING not in err, (args, code, out, err)
    monkeypatch.delenv(common.LOCK_WAIT_VARIABLE)
    assert main(["status", "--settings", str(host.settings)]) == 0
    assert f"pbp run: running (process {host.daemon.pid})" in capsys.readouterr().out


def test_a_writer_waits_for_the_cycle_then_goes_ahead(site):
    """Two writers never write at once: while the lock is held, `pbp extend` says once
    that it waits, and it goes ahead as soon as the lock is free."""
    host = site()
    host.new_game("class=1h,default=1h")
    host.start()
    before = deadline(host.record())
    lock = WriterLock(host.data).acquire(wait=30)  # the daemon may still be closing its first cycle
    try:
        waiting = subprocess.Popen(
            host.command("extend", "g1", "2h"),
            cwd=host.root,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        said = waiting.stderr.readline()  # printed once the command waits for the lock
        assert said.strip() == WAITING and waiting.poll() is None
        assert deadline(host.record()) == before
    finally:
        lock.release()
    out, err = waiting.communicate(timeout=30)
    assert waiting.returncode == 0, err
    assert err.strip() == ""
    assert deadline(host.record()) == before + timedelta(hours=2)


def test_a_writer_that_cannot_get_the_lock_stops_with_one_line(tmp_path, monkeypatch, capsys):
    host = Site(tmp_path)
    host.new_game("class=1h,default=1h")
    monkeypatch.setattr(common, "LOCK_WAIT_SECONDS", 0.5)
    with WriterLock(host.data):
        assert main(["pause", "g1", "--settings", str(host.settings)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == WAITING and len(lines) == 2
    assert "stayed in use by pbp process" in lines[1] and "try again" in lines[1]
    assert not host.record().get("paused")


def test_the_daemon_waits_while_a_host_command_holds_the_lock(site):
    """The daemon is a writer like any other: a deadline that passes while another
    process holds the lock is resolved only after it lets go."""
    host = site()
    host.new_game("class=1h,default=1h")
    host.start()
    due = deadline_soon(host, 6)
    lock = WriterLock(host.data).acquire(wait=30)  # the daemon may still be closing its first cycle
    try:
        host.wait_for(lambda: datetime.now(due.tzinfo) > due + timedelta(seconds=2), 15, "clock")
        assert host.record()["resolved"] == []
    finally:
        lock.release()
    host.resolved("T0-class", 20)


def test_a_reminder_goes_out_on_time_while_the_daemon_sleeps(site):
    """Reminders go out at their time, not at the next poll: the daemon's
    alarm includes the next reminder time."""
    host = site()
    # The reminder is due 10 s after the game starts and the deadline an hour later, so
    # however slowly the daemon starts, the phase is still open when the reminders are read.
    host.new_game("class=1h,default=1h", "reminders=59m50s")
    host.start()
    started = as_utc(host.state()["last_cycle"])
    record = host.record()
    reminder_time = deadline(record) - timedelta(minutes=59, seconds=50)

    def all_sent() -> list[dict] | None:
        rows = host.outbox(kind="reminder")
        return (
            rows if len(rows) == len(PLAYERS) and all(r["status"] == "sent" for r in rows) else None
        )

    rows = host.wait_for(all_sent, 20, "the reminders did not all go out")
    assert sorted(r["recipient"] for r in rows) == sorted(PLAYERS)
    for row in rows:
        sent = as_utc(row["sent"])
        assert reminder_time - timedelta(seconds=1) <= sent <= max(reminder_time, started) + ON_TIME
    assert host.record()["resolved"] == []  # before the deadline


def test_a_second_daemon_is_refused(site):
    host = site()
    host.new_game("class=1h,default=1h")
    host.start()
    done = host.pbp("run", check=False, timeout=20)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "pbp run is already running" in done.stderr
    assert host.daemon.poll() is None


def test_the_thread_watch_runs_inside_the_daemon_and_its_failures_show_in_status(site):
    """With the Reddit publisher configured, `pbp run` reads each game's thread: a
    comment by a dead player is flagged; when Reddit cannot be reached the daemon goes on
    and `pbp status` says the watch is failing."""
    from pbp.storage.drafts import DraftBook
    from pbp.game.stored import load
    from pbp.composition import ComposedModerator
    from pbp.settings import load_settings
    from tests.forum.reddit_server import FakeReddit

    reddit = FakeReddit().start()
    try:
        # watch_interval = 0: the thread is read at every cycle, so the broken Reddit below
        # shows at once (how often it is read is pinned in tests/forum/test_watch_interval.py).
        host = site(
            poll_interval=0.5,
            more={
                "forum": {"publisher": "reddit", "watch_interval": 0},
                "reddit": {
                    "subreddit": reddit.subreddit,
                    "client_id": "test-client",
                    "client_secret": "test-secret",
                    "username": reddit.username,
                    "password": "pw",
                    "timeout": 1,
                    "oauth_url": reddit.url,
                    "reddit_url": reddit.url,
                },
            },
        )
        host.new_game("class=1h,default=1h")
        thread = reddit.add_submission("g1: Infiltration game thread", "the game's thread")
        with ComposedModerator(load_settings(str(host.settings))) as moderator:
            game = load(moderator, "g1")
            with game.file.transaction():
                DraftBook(game.file).update_game_settings({"thread": thread.fullname})
        host.pbp("modkill", "g1", "Bruno", "left", "the", "game")
        reddit.add_comment(
            thread.fullname,
            "Psst, from beyond the grave",
            author="bruno_r",
            created_utc=time.time(),
        )
        reddit.add_comment(thread.fullname, "Hello all", author="alice_r", created_utc=time.time())
        host.start()
        host.wait_for(
            lambda: (
                "thread watch: [g1] Bruno (u/bruno_r) posted in the thread although they are dead"
                in host.log()
            ),
            15,
            "the dead player's comment was not flagged",
        )
        assert "Alice (u/alice_r)" not in host.log()
        host.wait_for(
            lambda: "1 warning(s)" in host.pbp("status").stdout, 10, "status shows no watch"
        )
        # The host points the settings at a Reddit that does not answer; the daemon reads
        # its settings every cycle and so uses the new ones at once.
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            closed = f"http://127.0.0.1:{probe.getsockname()[1]}"
        host.settings.write_text(host.settings.read_text().replace(reddit.url, closed))
    finally:
        reddit.stop()

    def failing() -> str | None:
        out = host.pbp("status").stdout
        return out if "thread watch FAILING" in out else None

    status = host.wait_for(failing, 20, "status does not show the failing watch")
    assert "pbp run: running" in status
    assert "thread watch failed" in host.log() and host.daemon.poll() is None


def test_an_open_editor_holds_no_lock(site):
    """`pbp draft edit` takes the lock only to save the edit: while the host's editor is
    open, the daemon and the other commands go on."""
    host = site()
    host.new_game("class=1h,default=1h")
    host.pbp("advance", "g1")  # makes a draft to edit
    host.start()
    # The editor says it is open through one FIFO and waits for the test's word on another,
    # so the host's command below runs while it is open, however loaded the machine is.
    opened, release = host.root / "editor-opened", host.root / "editor-release"
    os.mkfifo(opened)
    os.mkfifo(release)
    editor = (
        f"{sys.executable} -c \"import sys; open('{opened}', 'w').close(); "
        f"open('{release}').read(); open(sys.argv[1], 'a').write('A word from the host.')\""
    )
    editing = subprocess.Popen(
        host.command("draft", "edit", "g1"),
        cwd=host.root,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "EDITOR": editor},
    )
    try:
        open(opened).close()  # returns once the editor is open
        done = host.pbp("extend", "g1", "1h")
        assert editing.poll() is None
    finally:
        open(release, "w").close()  # the editor saves and closes
    assert WAITING not in done.stderr
    out, err = editing.communicate(timeout=30)
    assert editing.returncode == 0, err
    assert "Kept your edit of T0-class." in out
    assert "A word from the host." in host.pbp("draft", "show", "g1", "T0-class").stdout
