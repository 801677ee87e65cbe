"""`pbp demo`: a complete game on the embedded Maildir transport with scripted players
(docs/design.md: Embedded default).

Everything goes through the real path: pbp writes each mail into the player's Maildir,
the scripted player reads it there, fills in the form at its end and replies into pbp's
inbox Maildir, and pbp ingests, parses and judges that reply like any other mail. Where a
real game waits for the deadline, the demo resolves as soon as every actor's orders are in.

With `votes = thread` (`pbp demo --votes thread`) the demo runs a local Discourse of its
own (pbp.demo.discourse_server) for its length: pbp publishes the game's posts there
through its real Discourse client, the scripted players post their votes in the thread,
and before each resolution pbp reads the thread, publishes the running count and the demo
prints it as posted (pbp.demo.thread).

A team that settles an order together (the ruleset card's `channel_orders`: Werewolf's pack
KILL) agrees on it in its channel, by mail like everyone else: the first member in roster
order proposes its pick with its orders, the others wait for that message to reach them
and answer it with theirs. The demo prints each phase's team talk before its public events.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Mapping

import engine
from engine.seat_names import player_names
from pbp import schedule
from pbp.conversations.channels import HOST, message_log
from pbp.daemon.cycle import Cycle
from pbp.game.create import create_game
from pbp.game.stored import load, StoredGame
from pbp.storage.outbox import outbox_briefs
from pbp.game.resolution import resolve_phase
from pbp.mail.maildir import deliver
from pbp.composition import ComposedModerator
from pbp.game.record_parts import RosterPlayer
from pbp.render.languages import SOURCE_LANGUAGE
from pbp.demo.players import mail_text, reply_to
from pbp.demo.thread import DemoForum, private_orders
from pbp.demo.mail_answers import read_new_mail, reply_body, team_talk
from pbp.settings import Settings
from pbp.render.words import side_wins, victory_path
from pbp.mail.transport import open_mailbox, open_sender

MAX_ROUNDS = 400


@dataclass(frozen=True)
class DemoResult:
    game: str
    phases: int
    result: Mapping[str, Any] | None
    mails_sent: int
    mails_received: int


def play_demo(
    ruleset: str,
    players: int | None = None,
    seed: str | None = None,
    data: Path | None = None,
    say: Callable[[str], None] = print,
    clock: Callable[[], datetime] = schedule.now,
    votes: str = "mail",
    stop_after: int | None = None,
    language: str = SOURCE_LANGUAGE,
) -> DemoResult:
    """Play one demo game; `clock` is the moderator's clock (a frozen one makes every mail
    byte-identical from run to run, as the golden transcripts need). `votes` is the game's
    option: with `thread`, the votes are posted in a local forum's thread. Without a `seed`,
    the ruleset card's `demo_seed` is played. `stop_after`: stop once that many phases are
    resolved and the next one's orders are in (`pbp demo --web` leaves the game there for
    the host's desk). `language`: what every player, the host and the thread read."""
    data = data or Path(tempfile.mkdtemp(prefix="pbp-demo-"))
    forum = DemoForum.start(data) if votes != "mail" else None
    settings = Settings(
        data=data,
        transport="maildir",
        from_address="pbp@demo.invalid",
        replies_per_sender_per_day=10_000,
        source=forum.settings if forum else None,
        host_language=language,
    )
    card = engine.ruleset(ruleset).card
    count = players or card.demo_players
    seed = card.demo_seed if seed is None else seed
    roster = [
        RosterPlayer(
            name,
            f"{name.lower()}@players.invalid",
            forum_name=name.lower() if forum else "",
            language=language,
        )
        for name in player_names(count)
    ]
    try:
        with ComposedModerator(settings, clock=clock) as moderator:
            cycle = Cycle(moderator, open_mailbox(settings), open_sender(settings))
            try:
                return _play(moderator, cycle, ruleset, roster, seed, say, votes, forum, stop_after)
            finally:
                cycle.close()
    finally:
        if forum:
            forum.stop()


def _play(
    moderator: ComposedModerator,
    cycle: Cycle,
    ruleset: str,
    roster: list[RosterPlayer],
    seed: str,
    say: Callable[[str], None],
    votes: str = "mail",
    forum: DemoForum | None = None,
    stop_after: int | None = None,
) -> DemoResult:
    language = roster[0].language
    options = {
        **({"votes": votes} if forum else {}),
        **({"language": language} if language != SOURCE_LANGUAGE else {}),
    }
    game = create_game(
        moderator, ruleset, roster, seed=seed, schedule_text="default=1h", options=options or None
    )
    say(
        f"Demo: game {game.id} of {ruleset} with {len(roster)} scripted players "
        f"(mail in {moderator.settings.maildir_root})."
    )
    answered: dict[str, set[str]] = {entry.name: set() for entry in roster}
    heard: dict[str, set[tuple[str, str]]] = {
        entry.name: set() for entry in roster
    }  # (phase, channel)
    received = phases = 0
    for round_number in range(MAX_ROUNDS):
        cycle.send()
        current = load(moderator, game.id)
        if current.phase is None:
            break
        if forum:
            forum.publish(moderator)
        for index, entry in enumerate(roster):
            if forum and forum.post_votes(moderator, current, entry, answered[entry.name], seed):
                continue  # nothing left to mail
            received += _answer_mail(
                moderator,
                current,
                entry,
                answered[entry.name],
                heard[entry.name],
                seed,
                quote=index % 2 == 1,
            )
        cycle.poll()
        cycle.send()
        current = load(moderator, game.id)
        phase = current.phase
        assert phase is not None  # only this loop resolves the game, and it was not over above
        # Only players with an order to give get a form to answer (an empty form says that
        # no reply is needed).
        waiting = [
            entry.name
            for entry in roster
            if entry.name in phase.awaited and phase.id not in answered[entry.name]
        ]
        if waiting:
            continue  # their form is still on its way (they will answer next round)
        if stop_after is not None and phases >= stop_after:
            say(
                f"\nThe demo stops in {current.rules.card.phase_words(phase.id)}, every order in, "
                "for the host's desk to take over."
            )
            break
        if forum:
            forum.before_resolution(moderator, current, say)
        summary = resolve_phase(moderator, game.id, phase.id)
        assert summary is not None  # the phase is still open: nothing else resolves the demo's game
        phases += 1
        say(f"\n== {current.rules.card.phase_words(summary.phase)} ==")
        for row in message_log(current.file).all():
            if row["phase"] == summary.phase and row["channel"] != HOST:
                say(f"  ({row['channel']}, private) {row['sender']}: {row['text']}")
        for line in summary.public or ("(nothing public happened)",):
            say(f"  {line}")
    cycle.send()
    final = load(moderator, game.id)
    result = final.record.result
    if result:
        how = victory_path(result.path, ruleset)
        say(
            f"\n{side_wins(result.winners, ruleset) or 'Nobody wins: a draw.'}"
            f" {how[:1].upper()}{how[1:]}."
            + (f" Winning players: {', '.join(result.players)}." if result.players else "")
        )
    elif stop_after is None:  # (a demo stopped on purpose said so)
        say(f"\nThe game did not end within {MAX_ROUNDS} rounds.")
    say(
        "\nWhere to look next: each player's mail is in"
        f" {moderator.settings.maildir_root}/<address>/ (`pbp demo --keep DIR` keeps the whole data"
        " folder to read); `pbp init` starts a folder for a game of your own, and `pbp rules"
        " <ruleset>` explains the rules."
    )
    sent = sum(1 for row in outbox_briefs(final.file) if row.was_sent)
    return DemoResult(game.id, phases, result.to_json() if result else None, sent, received)


def _answer_mail(
    moderator: ComposedModerator,
    game: StoredGame,
    entry: RosterPlayer,
    answered: set[str],
    heard: set[tuple[str, str]],
    seed: str,
    quote: bool,
) -> int:
    """Read the player's new mail (moving it to cur/, as a mail client does); reply to
    a form for the open phase if the player acts in it and has not answered it yet. A
    team member who does not speak first waits until its team's first message arrives."""
    phase = game.phase
    chosen = read_new_mail(moderator.settings.maildir_root / entry.email, game, entry, heard)
    if chosen is None or phase is None or phase.id in answered or entry.name not in phase.awaited:
        return 0
    orders = private_orders(game, game.rules.scripted_orders(game.state, entry.name, seed))
    talk = team_talk(game, entry.name, orders, seed)
    if any(
        first != entry.name and (phase.id, channel) not in heard for channel, _, first, _ in talk
    ):
        return 0  # the team's first word is still on its way
    answered.add(phase.id)
    if not orders.strip():
        return 0  # nothing to order this phase: the rules' default applies
    body = reply_body(game, entry.name, phase.id, mail_text(chosen), orders, talk, quote)
    reply = reply_to(chosen, entry.name, entry.email, body)
    deliver(moderator.settings.maildir_root / "inbox", reply.as_bytes())
    return 1
