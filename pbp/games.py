"""Games: creating one from a roster, and resolving its open phase at the deadline
(docs/design.md: Reliability rules, Deadlines).

A resolution is one durable write holding the new state, the resolved phase's id, the next
deadline and every report queued in the outbox. It only runs when the game's open phase is
still the one asked for, so a restart after a crash never resolves a phase twice.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Sequence

from engine.core import GameSetupError, Phase, PlayerSpec, Ruleset
from pbp import schedule
from pbp.crashpoints import crash_point
from pbp.errors import UserError
from pbp.forum import hooks as forum_hooks
from pbp.forum.config import load_forum_settings
from pbp.forum.watch import dead_players
from pbp.moderator import Moderator
from pbp import publish_wait
from pbp.rendering import event_json, order_form
from pbp.standing_orders import standing_orders
from pbp.roster import Npc, RosterEntry, check_unique
from pbp.host.checkpoints import record_checkpoint
from pbp.host.options import OptionValueError, split_options
from pbp.store import GameFile
from pbp.timezones import render_moment
from pbp.welcome import welcome_facts

NPC_RECIPIENT = "host"  # the outbox recipient of the mail the host receives for an NPC
TOKEN_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"  # no look-alikes (l/1, o/0, i)


def new_token() -> str:
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(10))


@dataclass(frozen=True)
class Loaded:
    """A game's record with its state and open phase, read once."""

    file: GameFile
    record: dict
    rules: Ruleset
    state: Any
    phase: Phase | None

    @property
    def id(self) -> str:
        return self.record["id"]

    def player(self, address: str) -> dict | None:
        for entry in self.record["roster"]:
            if entry["email"] == address:
                return entry
        return None

    def token(self, name: str) -> str:
        return self.record["tokens"][name]

    def game_facts(self) -> dict:
        return {"id": self.id, "ruleset": self.record["ruleset"]}

    def deadline_text(self, name: str | None = None) -> str:
        """The deadline in `name`'s roster time zone and in UTC."""
        if self.record.get("paused"):
            return "none while the game is paused by the host"
        if publish_wait.awaited_post(self.record):  # option wait_for_publish
            return publish_wait.UNSET_DEADLINE
        zone = next((e.get("timezone", "") for e in self.record["roster"] if e["name"] == name), "")
        return render_moment(self.record["deadline"], zone) if self.record["deadline"] else ""

    def form(self, name: str) -> dict | None:
        return order_form(self.id, self.phase, name, self.token(name), self.deadline_text(name))

    def latest_orders(self, phase_id: str) -> dict[str, dict]:
        """Each player's latest accepted block for a phase (later blocks replace earlier).
        Rows are in the order they were written, so the last one of a player wins. Only
        the phase's rows are made into documents: the log holds every phase's orders."""
        latest: dict[str, dict] = {}
        for row in self.file.orders.search(lambda row: row["phase"] == phase_id):
            latest[row["player"]] = row
        return latest

    def latest_order(self, phase_id: str, player: str) -> dict | None:
        """`player`'s latest accepted block for a phase, or None; made from that player's
        rows only (a receipt asks it for every mail that is rejected)."""
        rows = self.file.orders.search(lambda row: row["phase"] == phase_id and row["player"] == player)
        return rows[-1] if rows else None


def load(moderator: Moderator, game_id: str) -> Loaded:
    file = moderator.folder.game(game_id)
    record = file.record()
    rules = moderator.rules(record["ruleset"])
    state, phase = _decoded(file, rules, record["state"])
    return Loaded(file, record, rules, state, phase)


def _decoded(file: GameFile, rules: Ruleset, data: dict):
    """The state and phase of a stored state JSON, decoded once per version: the writer's
    storage hands back the same JSON object until the state is written again."""
    memo = getattr(file, "_decoded", None)
    if memo is not None and memo[0] is data:
        return memo[1], memo[2]
    try:
        state = rules.from_json(data)
        phase = rules.phase(state)
    except (KeyError, ValueError, TypeError) as error:
        # Most often a game started with extra roles whose module the settings no longer name.
        raise UserError(f"The state of game {file.id} cannot be read ({type(error).__name__}: {error}); if the "
                        "game uses extra roles, check that [roles] modules in the settings still names "
                        "their module.") from None
    file._decoded = (data, state, phase)
    return state, phase


def create_game(moderator: Moderator, ruleset: str, roster: Sequence[RosterEntry], npcs: Sequence[Npc] = (),
                seed: str | None = None, options: dict | None = None, schedule_text: str | None = None,
                game_id: str | None = None) -> Loaded:
    """Start a game: its state, tokens, first deadline and a welcome mail to every player,
    all in one durable write, then its entry in the registry."""
    rules = moderator.rules(ruleset)
    check_unique([e.name for e in roster] + [n.name for n in npcs], "roster and --npc")
    if npcs and not rules.card.npcs_allowed:
        raise UserError(f"{ruleset.title()} has no NPCs; leave out --npc.")
    plan = schedule.parse_schedule(schedule_text, [kind.kind for kind in rules.card.phase_kinds])
    seed = seed if seed is not None else secrets.token_hex(8)
    specs = [PlayerSpec(e.name) for e in roster] + [
        PlayerSpec(n.name, npc=True, npc_class=n.npc_class, npc_team=n.team) for n in npcs]
    try:
        moderator_options, options = split_options(options or {})
        state = rules.new_game(specs, seed, options)
    except (GameSetupError, OptionValueError) as error:
        raise UserError(str(error)) from None
    folder = moderator.folder
    game_id = game_id or folder.next_game_id(rules.card.game_id_prefix)
    if game_id in folder.game_ids():
        raise UserError(f"A game called {game_id!r} exists already; choose another --id.")
    now = moderator.clock()
    phase = rules.phase(state)
    record = {
        "id": game_id,
        "ruleset": ruleset,
        "seed": seed,
        "options": dict(options),
        "moderator_options": moderator_options,
        "checkpoints": record_checkpoint({}, "start", rules.to_json(state)),
        "roster": [e.to_json() for e in roster],
        "npcs": [{"name": n.name, "class": n.npc_class, "team": n.team} for n in npcs],
        "tokens": {e.name: new_token() for e in roster},
        "schedule": plan,
        "state": rules.to_json(state),
        "phase_id": phase.id if phase else "",
        "opened": schedule.to_text(now),
        "deadline": schedule.to_text(schedule.deadline_after(now, plan, phase.kind)) if phase else "",
        "resolved": [],
        "result": None,
        "created": schedule.to_text(now),
        "outbox_sequence": 0,
    }
    path = folder.path / "games" / f"{game_id}.json"
    path.unlink(missing_ok=True)  # an unregistered leftover of a crashed new-game
    file = GameFile(path, writer=True)
    with file.transaction():
        file.game.insert(record)
        loaded = Loaded(file, record, rules, state, phase)
        for entry in roster:
            mail = moderator.renderer.render(
                "welcome", ruleset, game=loaded.game_facts(), player=entry.name, token=record["tokens"][entry.name],
                view=rules.view(state, entry.name), form=loaded.form(entry.name),
                **welcome_facts(loaded, entry.name))
            moderator.outbox.queue(file, phase=record["phase_id"] or "setup", recipient=entry.name,
                                   address=entry.email, kind="welcome", mail=mail)
    folder.games_table.insert({"id": game_id, "ruleset": ruleset, "created": record["created"]})
    folder._games[game_id] = file
    return load(moderator, game_id)


@dataclass(frozen=True)
class ResolutionSummary:
    game: str
    phase: str
    public: tuple[str, ...]
    result: dict | None
    next_phase: str


def resolve_phase(moderator: Moderator, game_id: str, phase_id: str | None = None) -> ResolutionSummary | None:
    """Resolve the open phase (only if it is still `phase_id`, when given) with the orders
    in; queue a report to every player; open the next phase with its deadline.
    Returns None when there was nothing to resolve (game over, or already resolved)."""
    game = load(moderator, game_id)
    if game.phase is None or (phase_id is not None and game.phase.id != phase_id):
        return None
    phase = game.phase
    rules = game.rules
    dead_before = dead_players(rules.view(game.state, None))
    blocks = {player: row["text"].splitlines() for player, row in game.latest_orders(phase.id).items()}
    orders = standing_orders(rules, game.state, phase, blocks)
    resolution = rules.resolve(game.state, orders)
    new_state = resolution.state
    next_phase = rules.phase(new_state)
    result = rules.result(new_state)
    now = moderator.clock()
    plan = game.record["schedule"]
    deadline = schedule.deadline_after(now, plan, next_phase.kind) if next_phase else None
    public = [event_json(e) for e in resolution.public]
    # Option wait_for_publish: the next phase opens now, its clock when this post is published.
    waits = publish_wait.clock_waits(game.record.get("moderator_options", {}), next_phase, public)
    with game.file.transaction():
        game.file.update_record({
            "state": rules.to_json(new_state),
            "phase_id": next_phase.id if next_phase else "",
            "opened": schedule.to_text(now),
            "deadline": schedule.to_text(deadline) if deadline and not waits else "",
            publish_wait.RECORD_KEY: publish_wait.waiting_marker(phase.id, next_phase) if waits else None,
            "resolved": [*game.record["resolved"], phase.id],
            "checkpoints": record_checkpoint(game.record, f"resolution of {phase.id}", rules.to_json(new_state)),
            "result": result.to_json() if result else None,
        })
        after = Loaded(game.file, game.file.record(), rules, new_state, next_phase)

        def report(name: str, form: dict | None):
            return moderator.renderer.render(
                "report", game.record["ruleset"], game=after.game_facts(), player=name,
                resolved_phase=phase.id, public_events=public,
                private_events=[event_json(e) for e in resolution.private.get(name, ())],
                result=result.to_json() if result else None,
                view=rules.view(new_state, name), form=form)

        # The dead get no reports after the one that told them of their death.
        for entry in game.record["roster"]:
            name = entry["name"]
            if name not in dead_before:
                moderator.outbox.queue(game.file, phase=phase.id, recipient=name, address=entry["email"],
                                       kind="report", mail=report(name, after.form(name)))
        # The host plays the NPCs: each NPC's report goes to the host address, as a
        # player's goes to that player (the host gives its orders with `pbp submit`).
        host_address = load_forum_settings(moderator.settings).host_address
        for npc in game.record.get("npcs", []):
            if host_address and npc["name"] not in dead_before:
                moderator.outbox.queue(game.file, phase=phase.id, recipient=NPC_RECIPIENT, address=host_address,
                                       kind="npc-report", mail=report(npc["name"], None))
        forum_hooks.after_resolution(moderator, game, after, phase.id, public)  # the public post's draft
        crash_point("mid-resolution")
    described = tuple(moderator.renderer.describe(game.record["ruleset"], e) for e in resolution.public)
    return ResolutionSummary(game_id, phase.id, described, result.to_json() if result else None,
                             next_phase.id if next_phase else "")


def due_games(moderator: Moderator) -> list[tuple[str, str]]:
    """(game, phase) pairs whose deadline has passed, earliest first."""
    now = moderator.clock()
    due = []
    for file in moderator.folder.games():
        record = file.record()
        if record["phase_id"] and record["deadline"] and schedule.from_text(record["deadline"]) <= now:
            due.append((record["deadline"], record["id"], record["phase_id"]))
    return [(game, phase) for _, game, phase in sorted(due)]


def resolve_due(moderator: Moderator) -> list[ResolutionSummary]:
    """Resolve every overdue phase exactly once (a game that fell far behind resolves one
    phase per call: its next phase gets a fresh deadline from now)."""
    summaries = []
    for game_id, phase_id in due_games(moderator):
        summary = resolve_phase(moderator, game_id, phase_id)
        if summary:
            summaries.append(summary)
    return summaries


def next_deadline(moderator: Moderator):
    times = [schedule.from_text(f.record()["deadline"]) for f in moderator.folder.games()
             if f.record()["phase_id"] and f.record()["deadline"]]
    return min(times) if times else None
