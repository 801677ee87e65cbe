"""The host's operations on a running game (docs/design.md: Command line).

Each operation changes the game file in one durable write together with the mails it
causes (queued in the outbox, sent by the caller or the daemon), like every other change
pbp makes. The engine state changes only through the engine (`host_kill`, `parse_orders`,
`resolve`), so `pbp replay` can re-run everything from the order log.

Substitution and names (a decision the rules leave open): a character keeps its name for
the whole game. The engine state, the order grammar, the public thread and the tokens all
use the character's name; a substitute takes over the character (role, history, a new
token) under that name, and the roster entry records who plays it now (`played_by`) and
who played it before (`replaced`). So orders still say `VOTE Alice` after Carol has taken
over Alice; the public notice says so. Nothing in the engine state is renamed, which keeps
replays exact and keeps every earlier post and report meaningful.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from engine.core import OrderBlockError, PlayerSpec
from engine.names import name_problem
from pbp import publish_wait, schedule
from pbp.errors import UserError
from pbp.forum import hooks as forum_hooks
from pbp.games import Loaded, load, new_token, resolve_phase
from pbp.host.checkpoints import record_checkpoint, state_digest
from pbp.host.options import MODERATOR_OPTIONS, OptionValueError, may_resolve_early, split_options
from pbp.host.replay import HOST_KILL, RESOLVE, Checkpoint, Divergence, ReplayError, Step, compare, replay
from pbp.moderator import Moderator
from pbp.outbox import FAILED, QUEUED
from pbp.rendering import event_json
from pbp.roster import normalise_address
from pbp.reminders import players_to_remind
from pbp.standing_orders import standing_orders
from pbp.welcome import welcome_facts
from pbp.timezones import (
    TimeInputError, as_utc, parse_deadline_change, render_moment, render_remaining, render_timestamp, zone_problem,
)

HOST = "host"  # the mail_key of orders the host entered with `pbp submit`


# --------------------------------------------------------------------------- helpers
def zone_of(record: dict, name: str) -> str:
    """The roster time zone of the player of character `name` ("" means UTC)."""
    for entry in record["roster"]:
        if entry["name"] == name:
            return entry.get("timezone", "")
    return ""


def _running(moderator: Moderator, game_id: str) -> Loaded:
    game = load(moderator, game_id)
    if game.phase is None:
        raise UserError(f"Game {game_id} is over; there is nothing to change.")
    return game


def _notify_all(moderator: Moderator, game: Loaded, kind: str, *, headline: str, lines: list[str],
                public_events: list[dict] | None = None, only: set[str] | None = None,
                deadline_is: str = "") -> int:
    """Queue one notice per player (call inside the game's transaction). `deadline_is`
    (e.g. "The new deadline is") adds a line ending in the deadline, shown in that
    player's own time zone and in UTC. The text is used as written, never as a template:
    the host's own words (a modkill reason, a substitute's name) may hold any character.

    The form is made from the game as it stands now, inside the transaction (the caller's
    `game` may have been loaded before the change): a notice of a new deadline must not end
    in a form that still shows the old one."""
    game = load(moderator, game.id)
    record = game.record
    count = 0
    for entry in record["roster"]:
        name = entry["name"]
        if only is not None and name not in only:
            continue
        deadline = render_moment(record["deadline"], entry.get("timezone", "")) if record["deadline"] else ""
        mail = moderator.renderer.render(
            "notice", record["ruleset"], game=game.game_facts(), player=name,
            headline=headline,
            lines=[*lines, *([f"{deadline_is} {deadline}."] if deadline_is else [])],
            public_events=public_events or [], form=game.form(name))
        moderator.outbox.queue(game.file, phase=record["phase_id"] or "over", recipient=name,
                               address=entry["email"], kind=kind, mail=mail)
        count += 1
    return count


# The same, for the moderator's own notices outside this module (pbp.publish_wait).
notify_players = _notify_all


def _log_host_action(game: Loaded, action: dict, moderator: Moderator) -> None:
    actions = list(game.file.record().get("host_actions", []))
    actions.append({**action, "at": schedule.to_text(moderator.clock())})
    game.file.update_record({"host_actions": actions})


# --------------------------------------------------------------------------- pbp orders
@dataclass(frozen=True)
class OrdersLine:
    player: str
    received: str
    lines: tuple[str, ...]
    by_host: bool


def orders_overview(moderator: Moderator, game_id: str) -> str:
    """Who has sent what in the open phase, and who has not (`pbp orders <game>`)."""
    game = load(moderator, game_id)
    record = game.record
    if game.phase is None:
        return f"Game {game_id} is over; no orders are taken."
    latest = game.latest_orders(game.phase.id)
    head = [f"Game {game_id}, phase {game.phase.id}: {_deadline_state(record, moderator.clock())}"]
    sent, missing = [], []
    # A Werewolf night lists every living player as an actor, most with nothing to order
    # (so that timing reveals nothing); the host is told apart who is really awaited.
    awaited = set(players_to_remind(game.phase))
    idle = [a for a in game.phase.actors if a not in latest and a not in awaited]
    for actor in game.phase.actors:
        row = latest.get(actor)
        if row is None:
            if actor not in idle:
                missing.append(actor)
            continue
        who = " (entered by the host)" if row.get("mail_key") == HOST else ""
        sent.append(f"  {actor}, received {render_timestamp(row['received'])}{who}:")
        sent.extend(f"      {line}" for line in (row["text"].splitlines() or ["(no orders: the rules' default)"]))
    head.append(f"Orders in ({len(sent and [a for a in game.phase.actors if a in latest])} of "
                f"{len(game.phase.actors)}):")
    head.extend(sent or ["  none yet"])
    head.append(f"No orders yet ({len(missing)}): {', '.join(missing) if missing else 'nobody'}")
    if idle:
        head.append(f"Nothing to order in this phase ({len(idle)}): {', '.join(idle)}")
    head.extend(_host_notes(game, latest))
    return "\n".join(head)


def _host_notes(game: Loaded, latest: dict[str, dict]) -> list[str]:
    """The ruleset's remarks for the host on the orders in so far (Werewolf: a split pack),
    from the blocks as the deadline would read them."""
    host_notes = getattr(game.rules, "host_notes", None)
    if host_notes is None:
        return []
    blocks = {player: row["text"].splitlines() for player, row in latest.items()}
    orders = standing_orders(game.rules, game.state, game.phase, blocks)
    return [f"Note: {note}" for note in host_notes(game.state, orders)]


def _deadline_state(record: dict, now: datetime) -> str:
    if record.get("paused"):
        left = timedelta(seconds=record["paused"]["remaining_seconds"])
        return f"PAUSED with {render_remaining(left)} left"
    post = publish_wait.awaited_post(record)
    if post is not None:  # option wait_for_publish
        return f"deadline not set yet: the clock starts when the public post of {post} is published"
    deadline = as_utc(record["deadline"])
    return f"deadline {render_moment(deadline)} (in {render_remaining(deadline - now)})"


# --------------------------------------------------------------------------- extend
def extend(moderator: Moderator, game_id: str, when: str) -> datetime:
    """Move the open phase's deadline: `when` is a duration added to it (`2h`, `1d12h`) or
    an absolute time with a zone (`2026-12-01 18:00 Europe/Berlin`). Players are told."""
    game = _running(moderator, game_id)
    if game.record.get("paused"):
        raise UserError(f"Game {game_id} is paused; resume it first, then extend its deadline.")
    now = moderator.clock()
    # A clock that waits for a public post (wait_for_publish) has no deadline yet: a
    # duration counts from now, and the host's deadline ends the wait.
    current = as_utc(game.record["deadline"]) if game.record["deadline"] else now
    try:
        deadline = parse_deadline_change(when, current, now)
    except TimeInputError as error:
        raise UserError(str(error)) from None
    if deadline <= now:
        raise UserError(f"{when!r} is in the past; give a later time or a duration.")
    with game.file.transaction():
        game.file.update_record({"deadline": schedule.to_text(deadline), publish_wait.RECORD_KEY: None})
        _log_host_action(game, {"kind": "extend", "phase": game.phase.id,
                                "deadline": schedule.to_text(deadline)}, moderator)
        _notify_all(moderator, game, "notice", headline=f"The deadline of {game.phase.id} has moved.",
                    lines=[], deadline_is="The new deadline is")
    return deadline


# --------------------------------------------------------------------------- pause / resume
def pause(moderator: Moderator, game_id: str) -> timedelta:
    """Stop the clock: the open phase keeps its orders, its deadline is removed (so no
    resolution and no reminder happens) and the time left is kept for `resume`."""
    game = _running(moderator, game_id)
    if game.record.get("paused"):
        raise UserError(f"Game {game_id} is already paused; `pbp resume {game_id}` restarts it.")
    now = moderator.clock()
    waits = publish_wait.awaited_post(game.record)
    if waits:  # the clock waits for a public post (wait_for_publish): the whole phase is left
        remaining = schedule.phase_duration(game.record["schedule"], game.phase.kind)
        stopped = (f"The deadline of {game.phase.id} was not set yet (it is set when the host publishes "
                   f"the thread post of {waits}), and it stays unset while the game is paused.")
    else:
        remaining = max(as_utc(game.record["deadline"]) - now, timedelta(0))
        stopped = f"The deadline of {game.phase.id} is stopped with {render_remaining(remaining)} left."
    with game.file.transaction():
        game.file.update_record({"deadline": "", "paused": {
            "remaining_seconds": int(remaining.total_seconds()), "since": schedule.to_text(now)}})
        _log_host_action(game, {"kind": "pause", "phase": game.phase.id}, moderator)
        _notify_all(moderator, game, "notice", headline=f"Game {game_id} is paused by the host.",
                    lines=[f"{stopped} Orders you send are still taken; you will be told when the game "
                           "resumes and what the new deadline is."])
    return remaining


def resume(moderator: Moderator, game_id: str) -> datetime | None:
    """Restart the clock with the time that was left when the game was paused.

    A clock that waited for a public post when the game was paused (wait_for_publish) waits
    again, or starts with the phase's full length if the post went out meanwhile
    (pbp.publish_wait); None while it still waits."""
    game = _running(moderator, game_id)
    paused = game.record.get("paused")
    if not paused:
        raise UserError(f"Game {game_id} is not paused.")
    deadline = moderator.clock() + timedelta(seconds=paused["remaining_seconds"])
    waits = publish_wait.awaited_post(game.record)
    with game.file.transaction():
        game.file.update_record({"deadline": "" if waits else schedule.to_text(deadline), "paused": None})
        _log_host_action(game, {"kind": "resume", "phase": game.phase.id}, moderator)
        if waits:
            started = publish_wait.start_clock(moderator, game_id)  # if the post went out meanwhile
            if started is None:
                _notify_all(moderator, game, "notice", headline=f"Game {game_id} has resumed.",
                            lines=[f"The deadline of {game.phase.id} is {publish_wait.UNSET_DEADLINE} of "
                                   f"{waits}; you will be told the deadline then."])
            return started
        _notify_all(moderator, game, "notice", headline=f"Game {game_id} has resumed.",
                    lines=[], deadline_is=f"The deadline of {game.phase.id} is")
    return deadline


# --------------------------------------------------------------------------- substitute
def substitute(moderator: Moderator, game_id: str, old: str, new_name: str, new_email: str,
               timezone: str | None = None, forum_name: str | None = None) -> str:
    """A newcomer takes over character `old`: new address, new token (the old one stops
    working), a welcome with the character's role and every earlier mail it received;
    every other player gets a public notice. Returns the new token.

    `timezone` is the newcomer's roster time zone, in which their deadlines are shown;
    None keeps the old player's (a decision the design leaves open: the host says so when
    the newcomer lives elsewhere). `forum_name` is the newcomer's forum account, which the
    thread watch follows from now on; None leaves the character with none, since the old
    player's account no longer speaks for it.

    Mail queued for the old player but not yet sent (`--no-send`, an SMTP retry) is
    withdrawn, never delivered: from the substitution on, the old address gets nothing."""
    game = _running(moderator, game_id)
    record = game.record
    entry = _roster_entry(record, old)
    if timezone is not None and zone_problem(timezone):
        raise UserError(zone_problem(timezone))
    if not new_name.strip():
        raise UserError("Give the newcomer's name, e.g. pbp substitute g1 Alice Carol carol@example.org.")
    problem = _newcomer_name_problem(record, entry, new_name.strip())
    if problem:
        raise UserError(problem)
    address = normalise_address(new_email)
    if address is None:
        raise UserError(f"{new_email!r} is not an email address like name@example.org.")
    if any(e["email"] == address for e in record["roster"]):
        raise UserError(f"{address} is already on the roster of {game_id}; give the newcomer's own address.")
    character = entry["name"]
    token = new_token()
    roster = [dict(e) for e in record["roster"]]
    for row in roster:
        if row["name"] == character:
            row["replaced"] = [*row.get("replaced", []),
                               {"played_by": row.get("played_by", row["name"]), "email": row["email"]}]
            row["email"] = address
            row["played_by"] = new_name.strip()
            if timezone is not None:
                row["timezone"] = timezone.strip()
            row["replaced"][-1]["forum_name"] = row.get("forum_name", "")
            row["forum_name"] = (forum_name or "").strip()
    history = _history_of(game, character)
    with game.file.transaction():
        _withdraw_unsent(game, entry["email"], character)
        game.file.update_record({"roster": roster, "tokens": {**record["tokens"], character: token}})
        _log_host_action(game, {"kind": "substitute", "phase": game.phase.id, "player": character,
                                "played_by": new_name.strip()}, moderator)
        after = load(moderator, game_id)
        mail = moderator.renderer.render(
            "welcome", record["ruleset"], game=after.game_facts(), player=character, token=token,
            view=after.rules.view(after.state, character), form=after.form(character),
            substitute={"name": new_name.strip(), "history": history},
            **_welcome_extras(after, character))
        moderator.outbox.queue(game.file, phase=record["phase_id"], recipient=character, address=address,
                               kind="welcome", mail=mail)
        forum_hooks.after_host_action(moderator, game, after, [{"kind": "substitution", "data": {
            "character": character, "played_by": new_name.strip(),
            "replaced": entry.get("played_by", character)}}])  # the public post
        others = {e["name"] for e in roster if e["name"] != character}
        _notify_all(moderator, after, "notice", only=others,
                    headline=f"{character} has a substitute.",
                    lines=[f"From now on {character} is played by {new_name.strip()}. The character "
                           f"keeps its name: orders and votes still name {character}."])
    return token


def _newcomer_name_problem(record: dict, entry: dict, name: str) -> str | None:
    """Why a substitute may not be called `name`, or None: the roster's name rules
    (docs/design.md: Command line; engine.names) and no clash, ignoring case, with another
    character's name, the player now playing it, or an NPC. The character being handed
    over is left out: its old name stays the character's, whoever plays it."""
    problem = name_problem(name)
    if problem:
        return f"The newcomer's name is refused: {problem}."
    taken = {npc["name"].lower(): npc["name"] for npc in record.get("npcs", [])}
    for other in record["roster"]:
        if other["name"] != entry["name"]:
            for used in (other["name"], other.get("played_by", "")):
                if used:
                    taken[used.lower()] = used
    if name.lower() in taken:
        return (f"The newcomer's name {name!r} is already taken in game {record['id']} by {taken[name.lower()]!r} "
                "(names must differ ignoring case); give the newcomer another name.")
    return None


def _withdraw_unsent(game: Loaded, address: str, character: str) -> None:
    """Mark every mail still queued for `address` as not sent, with the reason (shown by
    `pbp status`): it holds the old token and was meant for a player who left."""
    game.file.outbox.update(
        {"status": FAILED, "error": f"withdrawn: {character} was handed to a substitute before it went out"},
        cond=lambda row: row["status"] == QUEUED and row["address"] == address)


def _roster_entry(record: dict, name: str) -> dict:
    for entry in record["roster"]:
        if entry["name"].lower() == name.lower():
            return entry
    players = ", ".join(e["name"] for e in record["roster"])
    raise UserError(f"There is no player {name!r} in game {record['id']}; the players are: {players}.")


def _history_of(game: Loaded, character: str) -> list[dict]:
    """Every welcome and report the character received, oldest first, old token blanked:
    the newcomer learns what the character knows."""
    old_token = game.token(character)
    rows = [r for r in game.file.outbox.all()
            if r["recipient"] == character and r["kind"] in ("welcome", "report")]
    rows.sort(key=lambda r: r["sequence"])
    return [{"subject": r["subject"], "body": _without_form(r["body"]).replace(old_token, "(the old token)")}
            for r in rows]


def _without_form(body: str) -> str:
    """A mail's text without its order form: an old form in the history must not be
    mistaken for a block when the newcomer replies quoting the welcome."""
    kept, inside = [], False
    for line in body.splitlines():
        if line.strip().upper().startswith("BEGIN ORDERS"):
            inside = True
        elif inside and line.strip().upper() == "END ORDERS":
            inside = False
            kept.append("(the old order form is left out here)")
        elif not inside:
            kept.append(line)
    return "\n".join(kept)


def _welcome_extras(game: Loaded, name: str) -> dict:
    return welcome_facts(game, name)


# --------------------------------------------------------------------------- submit
def submit(moderator: Moderator, game_id: str, player: str, text: str) -> list[str]:
    """The host enters orders for an NPC or for a player who sent them another way.
    `text` is order lines, or a whole `BEGIN ORDERS … END ORDERS` block (its TOKEN line is
    not needed). Parsed by the same engine parser; accepted whole or refused whole."""
    game = _running(moderator, game_id)
    name = _character(game, player)
    if name not in game.phase.actors:
        raise UserError(f"{name} has no orders to give in {game.phase.id}.")
    lines = _order_lines(text, game_id)
    try:
        orders = game.rules.parse_orders(game.state, name, lines)
    except OrderBlockError as failure:
        listing = "; ".join(str(e) for e in failure.errors)
        raise UserError(f"The orders for {name} were not accepted: {listing}") from None
    canonical = [str(order) for order in orders]
    received = schedule.to_text(moderator.clock())
    with game.file.transaction():
        game.file.orders.insert({"phase": game.phase.id, "player": name, "text": "\n".join(canonical),
                                 "received": received, "message_id": "", "mail_key": HOST})
        entry = next((e for e in game.record["roster"] if e["name"] == name), None)
        if entry is not None:
            shown = canonical or ["(no orders: the rules' default applies)"]
            _notify_all(moderator, game, "receipt", only={name},
                        headline=f"The host entered orders for you for {game.phase.id}.",
                        lines=["Accepted:", *[f"  {line}" for line in shown],
                               "These replace any orders you sent earlier for this phase."])
    return canonical


def _character(game: Loaded, player: str) -> str:
    names = [e["name"] for e in game.record["roster"]] + [n["name"] for n in game.record.get("npcs", [])]
    for name in names:
        if name.lower() == player.lower():
            return name
    raise UserError(f"There is no player or NPC {player!r} in game {game.id}; they are: {', '.join(names)}.")


def _order_lines(text: str, game_id: str) -> list[str]:
    lines = text.replace("\r\n", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip().upper().startswith("BEGIN ORDERS")]
    if not starts:
        return [line for line in lines if not line.strip().upper().startswith("TOKEN:")]
    body = lines[starts[0] + 1:]
    ends = [i for i, line in enumerate(body) if line.strip().upper() == "END ORDERS"]
    if not ends:
        raise UserError("The orders file has BEGIN ORDERS but no END ORDERS; close the block.")
    return [line for line in body[:ends[0]] if not line.strip().upper().startswith("TOKEN:")]


# --------------------------------------------------------------------------- modkill
def modkill(moderator: Moderator, game_id: str, player: str, reason: str) -> list[str]:
    """The host removes a character at once (rules: a host kill takes effect at once, is
    announced with the host's reason, and is followed by a victory check). Every player is
    told, with the public events; if the game ends, the result goes out too."""
    if not reason.strip():
        raise UserError("Give a reason; it is announced with the kill.")
    game = _running(moderator, game_id)
    name = _character(game, player)
    resolution = game.rules.host_kill(game.state, name, reason.strip())
    new_state = resolution.state
    next_phase = game.rules.phase(new_state)
    result = game.rules.result(new_state)
    public = [event_json(e) for e in resolution.public]
    label = Step(HOST_KILL, game.phase.id, player=name).describe()
    fields = {"state": game.rules.to_json(new_state), "result": result.to_json() if result else None,
              "checkpoints": record_checkpoint(game.record, label, game.rules.to_json(new_state))}
    if next_phase is None or next_phase.id != game.phase.id:
        now = moderator.clock()
        fields.update({"phase_id": next_phase.id if next_phase else "", "opened": schedule.to_text(now),
                       "deadline": schedule.to_text(schedule.deadline_after(now, game.record["schedule"],
                                                                             next_phase.kind))
                       if next_phase else ""})
    with game.file.transaction():
        game.file.update_record(fields)
        _log_host_action(game, {"kind": HOST_KILL, "phase": game.phase.id, "player": name,
                                "reason": reason.strip()}, moderator)
        after = load(moderator, game_id)
        ending = []
        if result:
            winners = ", ".join(result.winners) or "nobody (a draw)"
            ending = [f"The game is over. Winners: {winners}."]
        _notify_all(moderator, after, "notice", headline=f"The host has removed {name} from the game.",
                    lines=[f"Reason: {reason.strip()}", *ending], public_events=public)
        forum_hooks.after_host_action(moderator, game, after, public)  # the public post
    return [moderator.renderer.describe(game.record["ruleset"], e) for e in resolution.public]


# --------------------------------------------------------------------------- moderator options
def change_options(moderator: Moderator, game_id: str, given: dict[str, str]) -> dict[str, str]:
    """Change a running game's moderator options (`reminders`, `resolve_when_all_in`,
    `wait_for_publish`; pbp.host.options), e.g. switch its reminders off; returns them all. The ruleset's
    options shaped the game when it began and stay as they are."""
    game = load(moderator, game_id)
    current = dict(game.record.get("moderator_options", {}))
    unknown = sorted(key for key in given if key.strip().lower() not in MODERATOR_OPTIONS)
    if unknown:
        raise UserError(f"{unknown[0]!r} cannot change in a running game; the options that can are "
                        f"{', '.join(sorted(MODERATOR_OPTIONS))}.")
    try:
        changed, _ = split_options({**current, **given})
    except OptionValueError as error:
        raise UserError(str(error)) from None
    if given:
        with game.file.transaction():
            game.file.update_record({"moderator_options": changed})
            _log_host_action(game, {"kind": "options", "phase": game.record["phase_id"] or "over",
                                    "options": {k.strip().lower(): v for k, v in given.items()}}, moderator)
            publish_wait.start_clock(moderator, game_id)  # wait_for_publish=off starts a waiting clock
    return changed


# --------------------------------------------------------------------------- early resolution
def resolve_if_all_in(moderator: Moderator, game_id: str):
    """Resolve the open phase now when the game's option `resolve_when_all_in` is on and
    every actor has orders in (never for secret actors); None when it does not apply."""
    game = load(moderator, game_id)
    if game.phase is None or game.record.get("paused") or publish_wait.awaited_post(game.record):
        return None  # a clock that waits for a public post has not started (wait_for_publish)
    options = game.record.get("moderator_options", {})
    if not may_resolve_early(options, game.phase, game.latest_orders(game.phase.id)):
        return None
    return resolve_phase(moderator, game_id, game.phase.id)


def resolve_all_in(moderator: Moderator) -> list:
    """Early resolution for every game (called once per poll cycle)."""
    summaries = []
    for game_id in moderator.folder.game_ids():
        summary = resolve_if_all_in(moderator, game_id)
        if summary:
            summaries.append(summary)
    return summaries


# --------------------------------------------------------------------------- replay
@dataclass(frozen=True)
class ReplayReport:
    steps: int
    divergence: Divergence | None
    error: str = ""

    @property
    def reproduced(self) -> bool:
        return self.divergence is None and not self.error


def replay_steps(game: Loaded) -> list[Step]:
    """The game's history as replay steps: for each resolved phase, the host kills made
    while it was open, then its resolution from each actor's latest accepted orders; then
    the host kills of the open phase (or of the phase a host kill ended the game in)."""
    kills: dict[str, list[dict]] = {}
    for action in game.record.get("host_actions", []):
        if action["kind"] == HOST_KILL:
            kills.setdefault(action["phase"], []).append(action)
    steps = []
    phases = list(game.record["resolved"])
    # the open phase, or the phase in which a host kill ended the game
    for phase_id in [*([game.phase.id] if game.phase else []), *kills]:
        if phase_id not in phases:
            phases.append(phase_id)
    for phase_id in phases:
        steps.extend(Step(HOST_KILL, phase_id, player=a["player"], reason=a["reason"])
                     for a in kills.get(phase_id, []))
        if phase_id in game.record["resolved"]:
            latest = game.latest_orders(phase_id)
            steps.append(Step(RESOLVE, phase_id, {p: row["text"].splitlines() for p, row in latest.items()}))
    return steps


def replay_game(moderator: Moderator, game_id: str) -> ReplayReport:
    """Re-run the game from seed and order log; compare with the stored checkpoints (a
    digest after each step, see `record_checkpoint`) and the stored current state."""
    game = load(moderator, game_id)
    record = game.record
    players = [PlayerSpec(e["name"]) for e in record["roster"]] + [
        PlayerSpec(n["name"], npc=True, npc_class=n["class"], npc_team=n["team"]) for n in record.get("npcs", [])]
    steps = replay_steps(game)
    try:
        checkpoints = replay(game.rules, players, record["seed"], record.get("options", {}), steps)
    except ReplayError as error:
        return ReplayReport(len(steps), None, str(error))
    digests = [Checkpoint(c.label, state_digest(c.state)) for c in checkpoints]
    stored = [Checkpoint(c["label"], c["digest"]) for c in record.get("checkpoints", [])]
    divergence = compare(stored, digests)
    if divergence is not None:
        return ReplayReport(len(steps), Divergence(divergence.label, "", None,
                                                   "the stored game's state differs from the replay's."))
    final = compare([Checkpoint("the current state", record["state"])],
                    [Checkpoint("the current state", checkpoints[-1].state)])
    return ReplayReport(len(steps), final)
