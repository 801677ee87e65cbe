"""The orders of the open phase, as the host sees them (`pbp orders`) and enters them
(`pbp submit`) (docs/design.md: Command line).
"""

from __future__ import annotations


from pbp.errors import UserError
from pbp.game.notifying.notices import notify_players
from pbp.game.order_row import OrderRow
from pbp.mail.blocks import opens_a_form, scan_blocks
from pbp.game.stored import StoredGame, load, running
from pbp.moderator import Moderator
from pbp.render.verdicts import Note, Refused
from pbp.game.judging.order_lines import read_orders
from pbp.game.tally import running_tally
from pbp.game.notifying.reminders import players_to_remind
from pbp.game.standing_orders import standing_orders
from pbp.timezones import render_timestamp, to_text
from engine.core import Phase
from engine.errors import OrderError, Wording

HOST = "host"  # the mail_key of orders the host entered with `pbp submit`
FOOTER_START = "\npbp, the moderator of game"  # templates/mail/_common.j2, footer


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
        who = " (entered by the host)" if row.mail_key == HOST else ""
        sent.append(f"  {actor}, received {render_timestamp(row.received)}{who}:")
        sent.extend(f"      {line}" for line in row.lines or ["(no orders: the rules' default)"])
    head.append(
        f"Orders in ({len(sent and [a for a in game.phase.actors if a in latest])} of "
        f"{len(game.phase.actors)}):"
    )
    head.extend(sent or ["  none yet"])
    head.append(f"No orders yet ({len(missing)}): {', '.join(missing) if missing else 'nobody'}")
    if idle:
        head.append(f"Nothing to order in this phase ({len(idle)}): {', '.join(idle)}")
    head.extend(_host_notes(game, game.phase, latest))
    return "\n".join(head)


def _host_notes(game: StoredGame, phase: Phase, latest: dict[str, OrderRow]) -> list[str]:
    """The ruleset's remarks for the host on the orders in so far (Werewolf: a split pack),
    from the blocks as the deadline would read them."""
    blocks = {player: row.lines for player, row in latest.items()}
    orders = standing_orders(game.rules, game.state, phase, blocks)
    return [f"Note: {note}" for note in game.rules.host_notes(game.state, orders)]


def submit(moderator: Moderator, game_id: str, player: str, text: str) -> list[str]:
    """The host enters orders for an NPC or for a player who sent them another way.
    `text` is order lines, or a whole `BEGIN ORDERS … END ORDERS` block (its TOKEN line is
    not needed). Parsed by the same engine parser; accepted whole or refused whole."""
    game = running(moderator, game_id)
    name = game.character(player)
    lines = _order_lines(text, game_id)
    canonical = parse_for(game, name, lines)
    with game.file.transaction():
        enter_orders(moderator, game, name, canonical, mail_key=HOST)
    return canonical


class OrdersRefused(UserError):
    """Orders the host entered that do not read: the sentence the command line prints, and
    the problems as a `bad_orders` verdict holds them, so that the desk words each in the
    host's language (pbp.render.refusals.refusal_lines)."""

    def __init__(self, name: str, errors: list[OrderError]) -> None:
        lines = tuple(str(error) for error in errors)
        self.head = Wording("The orders for %(name)s were not accepted:", {"name": name})
        super().__init__(f"{self.head} {'; '.join(lines)}")
        self.verdict = Refused("bad_orders", errors=lines, placed=tuple(errors))


def parse_for(game: StoredGame, name: str, lines: list[str], first_line: int = 1) -> list[str]:
    """The canonical text of `name`'s orders in the open phase, read as a player's block is
    (WITHDRAW included), or a UserError saying every problem (`first_line`: the number of
    `lines[0]` in what the host wrote)."""
    phase = game.open_phase
    if name not in phase.actors:
        raise UserError.of(
            "%(name)s has no orders to give in %(phase)s.", name=name, phase=phase.id
        )
    read = read_orders(
        game.rules,
        game.state,
        phase,
        name,
        lines,
        lambda: game.standing_lines(name),
        votes=game.votes,
    )  # the host may enter a public order for anyone
    if read.errors:
        raise OrdersRefused(name, [e.moved(first_line - 1) for e in read.errors])
    return list(read.canonical)


def enter_orders(
    moderator: Moderator,
    game: StoredGame,
    name: str,
    canonical: list[str],
    *,
    mail_key: str,
    message_id: str = "",
) -> None:
    """Store `name`'s accepted orders for the open phase (inside the caller's transaction);
    a player (not an NPC) is told that the host entered orders for them."""
    received = to_text(moderator.clock())
    game.file.orders.insert(
        OrderRow(
            game.open_phase.id, name, "\n".join(canonical), received, message_id, mail_key
        ).to_row()
    )
    if name in game.record.roster.names:
        notify_players(
            moderator,
            game,
            "receipt",
            Note(
                "orders_entered",
                phase_words=game.rules.card.phase_words(game.open_phase.id),
                lines=tuple(canonical),
            ),
            only={name},
        )


def character_status(moderator: Moderator, game_id: str, player: str) -> str:
    """What `STATUS` by mail would answer for a character (an NPC's, for the host who plays
    it): where it stands, its accepted orders for the open phase and the deadline."""
    game = load(moderator, game_id)
    name = game.character(player)
    phase = game.record.phase_id
    latest = game.latest_order(phase, name) if phase else None
    accepted = (
        {"received": render_timestamp(latest.received), "lines": latest.lines} if latest else None
    )
    mail = moderator.host_renderer.render(
        "status_reply",
        game.record.ruleset,
        game=game.game_facts(),
        player=name,
        phase=phase,
        deadline=game.deadline_text(name),
        accepted=accepted,
        tally=running_tally(game),
        view=game.rules.view(game.state, name),
        form=None,
    )
    return for_the_screen(mail.body)


def for_the_screen(body: str) -> str:
    """A mail's text as the host reads it on the terminal: without the footer and the
    order form (which are for a mail reader), and never a TOKEN line."""
    kept = []
    for line in body.split(FOOTER_START, 1)[0].splitlines():
        if opens_a_form(line):
            break
        kept.append(line)
    return "\n".join(kept).rstrip() + "\n"


def _order_lines(text: str, game_id: str) -> list[str]:
    """The order lines of what the host wrote: bare order lines (a TOKEN line among them is
    dropped), or the lines of the one `BEGIN ORDERS … END ORDERS` block it holds, read by
    the scanner that reads players' mail."""
    text = text.replace("\r\n", "\n")
    scan, _quoted = scan_blocks(text)
    found = len(scan.blocks) + len(scan.problems) + scan.unread
    if found > 1:
        raise UserError(
            f"The orders file holds {found:,} order blocks; put one BEGIN ORDERS … END ORDERS "
            "block in it, or only the order lines."
        )
    if scan.problems:
        raise UserError(scan.problems[0])
    if not scan.blocks:
        return [line for line in text.split("\n") if not opens_a_form(line)]
    block = scan.blocks[0]
    if block.game.lower() != game_id.lower():
        raise UserError(
            f"The orders file's block is for game {block.game}, not {game_id}; "
            f"write BEGIN ORDERS {game_id} <phase-id> or only the order lines."
        )
    return list(block.lines)
