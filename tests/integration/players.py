"""Scripted players for whole games over the real mail servers: each reads its new mail
over IMAP and replies to its forms over SMTP, and the test, as the host, advances a phase
once every answer is judged (the host's folder and daemon: tests/fixtures/harness.py)."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass, field

import engine
from pbp.demo.players import filled_reply_text, form_in, mail_text
from tests.fixtures.harness import Host


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


def play_until_over(
    host: Host,
    game_id: str,
    ruleset: str,
    seed: str,
    scripted: list[ScriptedPlayer],
    process: subprocess.Popen,
    timeout: float,
) -> dict:
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


def every_answer_judged(
    host: Host, game_id: str, ruleset: str, seed: str, scripted: list[ScriptedPlayer]
) -> bool:
    """Whether every scripted actor of the open phase that has orders to give has them in
    the game's order log (an actor with nothing to order, such as a villager at night,
    may get no form at all)."""
    rules = engine.ruleset(ruleset)
    state = rules.from_json(host.record(game_id)["state"])
    phase = rules.phase(state)
    if phase is None:
        return False
    ordered = {row["player"] for row in host.table(game_id, "orders") if row["phase"] == phase.id}
    return all(
        player.name in ordered
        for player in scripted
        if player.name in phase.actors and rules.scripted_orders(state, player.name, seed).strip()
    )
