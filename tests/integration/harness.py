"""Running `pbp` itself (a subprocess) against the session's real Dovecot and aiosmtpd,
and scripted players who read their mail over IMAP and reply to their forms over SMTP."""
from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import engine
from engine.simulation import player_names
from pbp.cli import main
from pbp.demo.players import filled_reply_text, form_in, mail_text
from pbp.storage.game_storage import game_tables
from tests.fixtures.waiting import wait_until

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Host:
    """A host's setup: a settings file for IMAP over TLS (self-signed CA) and SMTP."""

    root: Path
    dovecot: object
    smtp: object
    address: str
    poll_interval: float = 0.3

    @property
    def settings(self) -> Path:
        return self.root / "pbp.ini"

    @property
    def data(self) -> Path:
        return self.root / "data"

    def write_settings(self) -> None:
        self.settings.write_text(f"""[pbp]
data = data
transport = imap
from_address = {self.address}
poll_interval = {self.poll_interval}
replies_per_sender_per_day = 1000

[imap]
host = {self.dovecot.host}
port = {self.dovecot.imaps_port}
security = tls
ca_file = {self.dovecot.root / 'cert.pem'}
user = {self.address}
password_file = imap-password.txt

[smtp]
host = {self.smtp.host}
port = {self.smtp.port}
security = none
""", encoding="utf-8")
        (self.root / "imap-password.txt").write_text(self.dovecot.passwords[self.address] + "\n")

    def pbp(self, *args: str, env: dict | None = None, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run([sys.executable, "-m", "pbp", *args, "--settings", str(self.settings)],
                              capture_output=True, text=True, cwd=self.root, timeout=120,
                              env={**os.environ, **(env or {})})
        if check and done.returncode != 0:
            raise AssertionError(f"pbp {' '.join(args)} failed: {done.stdout}{done.stderr}")
        return done

    def pbp_here(self, *args: str) -> None:
        """Run a command in this process, as a host at the terminal would, without an
        interpreter's start-up per phase; it waits for the daemon's lock as commands do."""
        with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()) as err:
            status = main([*args, "--settings", str(self.settings)])
        if status != 0:
            raise AssertionError(f"pbp {' '.join(args)} failed: {out.getvalue()}{err.getvalue()}")

    def start_run(self, env: dict | None = None) -> subprocess.Popen:
        log = open(self.root / "run.log", "ab")
        return subprocess.Popen([sys.executable, "-m", "pbp", "run", "--settings", str(self.settings)],
                                cwd=self.root, stdout=log, stderr=subprocess.STDOUT,
                                env={**os.environ, **(env or {})})

    def record(self, game_id: str) -> dict:
        """The game's record, read like `pbp status` does (no lock)."""
        path = self.data / "games" / f"{game_id}.json"
        for _ in range(50):
            try:
                return next(iter(json.loads(path.read_text())["game"].values()))
            except (FileNotFoundError, json.JSONDecodeError):
                time.sleep(0.05)
        raise AssertionError(f"cannot read {path}")

    def table(self, game_id: str, name: str) -> list[dict]:
        return list(game_tables(self.data / "games" / f"{game_id}.json").get(name, {}).values())

    def log(self) -> str:
        path = self.root / "run.log"
        return path.read_text(errors="replace") if path.exists() else ""


def infiltration_under_run(root: Path, mail_server, smtp_server, make_player, poll_interval: float,
                           schedule: str = "default=1h") -> tuple[Host, list]:
    """A host with a five-player Infiltration game `g1` (seed 8, no reminders) made and
    `pbp run` not yet started: the setting the daemon's integration tests share."""
    host = Host(root, mail_server, smtp_server, mail_server.add_user(mail_server.new_address("pbp")),
                poll_interval=poll_interval)
    host.write_settings()
    players = make_players(make_player, 5)
    host.pbp("new-game", "--ruleset", "infiltration", "--roster", str(write_roster(root, players)),
             "--seed", "8", "--schedule", schedule, "--id", "g1", "--option", "reminders=off")
    return host, players


def wait_for(condition, timeout: float, what: str, host: Host):
    """`wait_until` with the daemon's log in the failure."""
    return wait_until(condition, timeout, what, log=host.log)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class ScriptedPlayer:
    """Reads new mail over IMAP; answers each form of an open phase it acts in, once,
    over SMTP, by replying to the mail (quoting it, or pasting the bare block)."""

    name: str
    mailbox: object  # fixtures.mailserver.Player
    quote: bool
    answered: set = field(default_factory=set)
    received: list = field(default_factory=list)

    def step(self, host: Host, game_id: str, ruleset: str, seed: str) -> None:
        for message in self.mailbox.read_new(at_least=0, timeout=0):
            self.received.append(message)
            form = form_in(mail_text(message))
            if form is None or form[1] in self.answered:
                continue
            record = host.record(game_id)
            if record["phase_id"] != form[1]:
                continue  # already resolved; a newer mail brings the next form
            rules = engine.ruleset(ruleset)
            state = rules.from_json(record["state"])
            phase = rules.phase(state)
            if phase is None or self.name not in phase.actors:
                continue
            orders = rules.scripted_orders(state, self.name, seed)
            self.answered.add(form[1])
            if not orders.strip():
                continue  # nothing to order: the rules' default applies
            body = filled_reply_text(mail_text(message), orders, self.quote)
            self.mailbox.reply(message, body, quote=False)


def make_players(make_player, count: int) -> list[tuple[str, object]]:
    return [(name, make_player(name.lower())) for name in player_names(count)]


def write_roster(root: Path, players) -> Path:
    path = root / "roster.csv"
    path.write_text("name,email\n" + "".join(f"{name},{box.address}\n" for name, box in players))
    return path


def play_until_over(host: Host, game_id: str, ruleset: str, seed: str, scripted: list[ScriptedPlayer],
                    process: subprocess.Popen, timeout: float) -> dict:
    """Play the game to its end. Its phases are long and its deadlines never come: the test
    is the host who runs `pbp advance` once every scripted actor of the open phase has
    answered and pbp has judged the answer, so no reply races a deadline however slowly a
    loaded machine reads and sends."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"pbp run stopped: {host.log()}")
        record = host.record(game_id)
        if record["result"]:
            return record
        for player in scripted:
            player.step(host, game_id, ruleset, seed)
        if every_answer_judged(host, game_id, ruleset, seed, scripted):
            host.pbp_here("advance", game_id)
        time.sleep(0.05)
    raise AssertionError(f"game {game_id} did not end in {timeout} s; log:\n{host.log()[-3000:]}")


def every_answer_judged(host: Host, game_id: str, ruleset: str, seed: str, scripted: list[ScriptedPlayer]) -> bool:
    """Whether every scripted actor of the open phase that has orders to give has them in
    the game's order log (an actor with nothing to order, such as a villager at night,
    may get no form at all)."""
    rules = engine.ruleset(ruleset)
    state = rules.from_json(host.record(game_id)["state"])
    phase = rules.phase(state)
    if phase is None:
        return False
    ordered = {row["player"] for row in host.table(game_id, "orders") if row["phase"] == phase.id}
    return all(player.name in ordered for player in scripted
               if player.name in phase.actors and rules.scripted_orders(state, player.name, seed).strip())


def wait_all_sent(host: Host, game_id: str, timeout: float = 30) -> list[dict]:
    def all_sent() -> list[dict]:
        rows = host.table(game_id, "outbox")
        return rows if rows and all(row["status"] == "sent" for row in rows) else []
    return wait_until(all_sent, timeout, "the outbox did not empty", log=host.log)
