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

from engine.core import OrderBlockError, PlayerSpec
from engine.names import name_problem
from pbp import schedule
from pbp.errors import UserError
from pbp.game.deadlines import start_clock
from pbp.game.notices import log_host_action, notify_players
from pbp.game.options import MODERATOR_OPTIONS, OptionValueError, split_options
from pbp.game.record import StoredGame, load, new_token, running
from pbp.host.checkpoints import record_checkpoint, state_digest
from pbp.host.replay import HOST_KILL, RESOLVE, Checkpoint, Divergence, ReplayError, Step, compare, replay
from pbp.moderator import Moderator
from pbp.outbox import FAILED, QUEUED
from pbp.rendering import event_json
from pbp.roster import normalise_address
from pbp.reminders import players_to_remind
from pbp.standing_orders import standing_orders
from pbp.welcome import welcome_facts
from pbp.timezones import render_timestamp, zone_problem

HOST = "host"  # the mail_key of orders the host entered with `pbp submit`


# --------------------------------------------------------------------------- pbp orders
def orders_overview(moderator: Moderator, game_id: str) -> str:
    """Who has sent what in the open phase, and who has not (`pbp orders <game>`)."""
    game = load(moderator, game_id)
    if game.phase is None:
        return f"Game {game_id} is over; no orders are taken."
    latest = game.latest_orders(game.phase.id)
    head = [f"Game {game_id}, phase {game.phase.id}: {game.clock.host_line(moderator.clock())}"]
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


def _host_notes(game: StoredGame, latest: dict[str, dict]) -> list[str]:
    """The ruleset's remarks for the host on the orders in so far (Werewolf: a split pack),
    from the blocks as the deadline would read them."""
    host_notes = getattr(game.rules, "host_notes", None)
    if host_notes is None:
        return []
    blocks = {player: row["text"].splitlines() for player, row in latest.items()}
    orders = standing_orders(game.rules, game.state, game.phase, blocks)
    return [f"Note: {note}" for note in host_notes(game.state, orders)]


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
    game = running(moderator, game_id)
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
        log_host_action(game, {"kind": "substitute", "phase": game.phase.id, "player": character,
                                "played_by": new_name.strip()}, moderator)
        after = load(moderator, game_id)
        mail = moderator.renderer.render(
            "welcome", record["ruleset"], game=after.game_facts(), player=character, token=token,
            view=after.rules.view(after.state, character), form=after.form(character),
            substitute={"name": new_name.strip(), "history": history},
            **welcome_facts(after, character))
        moderator.outbox.queue(game.file, phase=record["phase_id"], recipient=character, address=address,
                               kind="welcome", mail=mail)
        substitution = [{"kind": "substitution", "data": {
            "character": character, "played_by": new_name.strip(), "replaced": entry.get("played_by", character)}}]
        for listener in moderator.after_host_action:  # the forum drafts the public post
            listener(moderator, game, after, substitution)
        others = {e["name"] for e in roster if e["name"] != character}
        notify_players(moderator, after, "notice", only=others,
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


def _withdraw_unsent(game: StoredGame, address: str, character: str) -> None:
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


def _history_of(game: StoredGame, character: str) -> list[dict]:
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


# --------------------------------------------------------------------------- submit
def submit(moderator: Moderator, game_id: str, player: str, text: str) -> list[str]:
    """The host enters orders for an NPC or for a player who sent them another way.
    `text` is order lines, or a whole `BEGIN ORDERS … END ORDERS` block (its TOKEN line is
    not needed). Parsed by the same engine parser; accepted whole or refused whole."""
    game = running(moderator, game_id)
    name = game.character(player)
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
            notify_players(moderator, game, "receipt", only={name},
                        headline=f"The host entered orders for you for {game.phase.id}.",
                        lines=["Accepted:", *[f"  {line}" for line in shown],
                               "These replace any orders you sent earlier for this phase."])
    return canonical


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
    game = running(moderator, game_id)
    name = game.character(player)
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
        log_host_action(game, {"kind": HOST_KILL, "phase": game.phase.id, "player": name,
                                "reason": reason.strip()}, moderator)
        after = load(moderator, game_id)
        ending = []
        if result:
            winners = ", ".join(result.winners) or "nobody (a draw)"
            ending = [f"The game is over. Winners: {winners}."]
        notify_players(moderator, after, "notice", headline=f"The host has removed {name} from the game.",
                    lines=[f"Reason: {reason.strip()}", *ending], public_events=public)
        for listener in moderator.after_host_action:  # the forum drafts the public post
            listener(moderator, game, after, public)
    return [moderator.renderer.describe(game.record["ruleset"], e) for e in resolution.public]


# --------------------------------------------------------------------------- moderator options
def change_options(moderator: Moderator, game_id: str, given: dict[str, str]) -> dict[str, str]:
    """Change a running game's moderator options (`reminders`, `resolve_when_all_in`,
    `wait_for_publish`; pbp.game.options), e.g. switch its reminders off; returns them all. The ruleset's
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
            log_host_action(game, {"kind": "options", "phase": game.record["phase_id"] or "over",
                                    "options": {k.strip().lower(): v for k, v in given.items()}}, moderator)
            start_clock(moderator, game_id)  # wait_for_publish=off starts a waiting clock
    return changed


# --------------------------------------------------------------------------- replay
@dataclass(frozen=True)
class ReplayReport:
    steps: int
    divergence: Divergence | None
    error: str = ""

    @property
    def reproduced(self) -> bool:
        return self.divergence is None and not self.error


def replay_steps(game: StoredGame) -> list[Step]:
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

