"""The host's actions on a running game, each with the answer it gives the host: the
command line (`pbp extend|pause|resume|substitute|modkill|submit|options|start`) prints
it, the desk shows it (docs/design.md: The host's desk in the browser — one place per
action). Each queues the mail it causes in the outbox; who sends it (the command at
once, the desk's `pbp run`) is the caller's business."""

from __future__ import annotations

from typing import Any, Iterator

from engine.core import HostActionError
from engine.errors import Wording
from pbp.errors import UserError
from pbp.game.clock import awaited_post
from pbp.game.deadlines import extend, pause, resume
from pbp.game.resolution import resolve_if_all_in
from pbp.game.stored import load
from pbp.host.options_change import change_options
from pbp.host.orders import submit
from pbp.host.removal import modkill
from pbp.host.substitute import substitute
from pbp.moderator import Moderator
from pbp.render.forms import order_form
from pbp.signups.starting import start_signed_up
from pbp.signups.substitutes import next_substitute, strike_off
from pbp.storage.signup_record import SignupEntry
from pbp.render.moments import Moment, Span

# Each answer is a Wording: the command line prints its English (`str`), the desk words it
# in the host's language (docs/design.md: Languages — the desk's words).


def extend_deadline(moderator: Moderator, game_id: str, when: str, reason: str = "") -> Wording:
    """Move the deadline by a duration (`2h`) or to a time with a zone."""
    deadline = Moment(extend(moderator, game_id, when, reason))
    return Wording(
        "Game %(game)s: the deadline is now %(deadline)s; a post for the thread is drafted.",
        {"game": game_id, "deadline": deadline},
    )


def pause_game(moderator: Moderator, game_id: str, reason: str = "") -> Wording:
    """Stop the game's clock until it is resumed."""
    left = Span(pause(moderator, game_id, reason))
    return Wording(
        "Game %(game)s is paused with %(left)s left; a post for the thread is drafted.",
        {"game": game_id, "left": left},
    )


def resume_game(moderator: Moderator, game_id: str, reason: str = "") -> Wording:
    """Restart a paused game's clock with the time it had left."""
    deadline = resume(moderator, game_id, reason)
    if deadline is None:  # option wait_for_publish: the clock still waits for a public post
        return Wording(  # the deadline is UNSET_DEADLINE
            "Game %(game)s resumed; the deadline is set when the host publishes the thread post"
            " (`pbp status %(game)s` shows which); a post for the thread is drafted.",
            {"game": game_id},
        )
    return Wording(
        "Game %(game)s resumed; the deadline is %(deadline)s; a post for the thread is drafted.",
        {"game": game_id, "deadline": Moment(deadline)},
    )


def substitute_player(
    moderator: Moderator,
    game_id: str,
    old: str,
    name: str | None,
    email: str | None,
    timezone: str | None = None,
    forum_name: str | None = None,
    *,
    from_list: bool = False,
    language: str | None = None,
) -> list[Wording]:
    """Hand `old`'s character to a newcomer: the one named, or (`from_list`) the first on
    the game's substitutes' list who does not watch the game (pbp.signups.substitutes)."""
    skipped: list[SignupEntry] = []
    if from_list:
        record = load(moderator, game_id).record
        roster = {player.email for player in record.roster}
        chosen, skipped = next_substitute(moderator.folder, game_id, roster, set(record.watchers))
        name, email = chosen.name, chosen.email
        language = language or chosen.language or None  # the sign-up's, else the old player's
    assert name is not None and email is not None  # the caller gave both, or the list did
    substitute(moderator, game_id, old, name, email, timezone, forum_name, language)
    if from_list:
        strike_off(moderator.folder, game_id, email)
    character = load(moderator, game_id).character(old)
    said = [
        Wording(
            "Game %(game)s: %(new)s now plays %(character)s; the old token no longer works, and"
            " the old player was sent a goodbye.",
            {"game": game_id, "new": name.strip(), "character": character},
        )
    ]
    for entry in skipped:
        said.append(
            Wording(
                "skipped %(name)s <%(email)s> on the substitutes' list: they watch %(game)s, and"
                " a watcher is never dealt in.",
                {"name": entry.name, "email": entry.email, "game": game_id},
            )
        )
    return said


def modkill_character(
    moderator: Moderator, game_id: str, player: str, reason: str
) -> list[Wording | str]:
    """Remove a character at once; the kill and its reason are announced to everyone (the
    announcement's lines as the public post words them, in the game's language)."""
    name = load(moderator, game_id).character(player)  # `jose` is José
    try:
        public = modkill(moderator, game_id, name, reason)
    except HostActionError as error:  # the engine refuses (e.g. an already dead character)
        raise UserError(error.wording) from None
    removed = Wording("%(name)s is removed from game %(game)s.", {"name": name, "game": game_id})
    return [removed, *(f"  {line}" for line in public)]


def submit_orders(
    moderator: Moderator, game_id: str, player: str, text: str
) -> Iterator[Wording | str]:
    """Enter orders for an NPC or a player through the mail's parser: the receipt's lines
    (the order lines as they were read). In a game with `resolve_when_all_in`, the order
    that completes the phase resolves it."""
    accepted = submit(moderator, game_id, player, text)
    name = load(moderator, game_id).character(player)  # `jose`: José
    yield Wording("Accepted for %(name)s:", {"name": name})
    yield from (f"  {line}" for line in accepted)
    if not accepted:
        yield Wording("  (no orders: the rules' default applies)")
    summary = resolve_if_all_in(moderator, game_id)
    if summary is not None:
        yield summary.resolved_early(with_game=False)


def set_options(moderator: Moderator, game_id: str, given: dict[str, Any]) -> tuple[Wording, bool]:
    """Show (nothing `given`) or change a running game's moderator options: the answer, and
    whether the change started a clock that waited for a public post (the players' deadline
    notices are then queued)."""
    waiting_before = bool(given) and bool(awaited_post(load(moderator, game_id).record))
    options = change_options(moderator, game_id, given)
    listed = ", ".join(f"{key}={value}" for key, value in sorted(options.items()))
    facts = {"game": game_id, "options": listed}
    answer = (
        Wording("Game %(game)s now has: %(options)s.", facts)
        if given
        else Wording("Game %(game)s has: %(options)s.", facts)
    )
    return answer, waiting_before and not awaited_post(load(moderator, game_id).record)


def start_open_game(moderator: Moderator, game_id: str) -> Wording:
    """Deal the roles of a game open for sign-ups to those who signed up."""
    game = start_signed_up(moderator, game_id)
    return Wording(
        "Game %(game)s (%(ruleset)s, %(count)s players) started; phase %(phase)s ends"
        " %(deadline)s.",
        {
            "game": game.id,
            "ruleset": game.record.ruleset,
            "count": len(game.roster),
            "phase": game.record.phase_id,
            "deadline": Moment(game.record.deadline, game.zone_of(None))
            if game.record.deadline and not game.record.paused
            else game.deadline_text(),
        },
    )


def host_order_form(moderator: Moderator, game_id: str, player: str) -> str:
    """The order form the mail gives `player` for the open phase, as the host fills it in
    for them: without a TOKEN line (the host needs none), read back by `submit_orders`."""
    game = load(moderator, game_id)
    name = game.character(player)
    form = order_form(game.id, game.phase, name, "", game.deadline_text(name))
    text = moderator.host_renderer.order_form(form, game.game_facts())
    return (
        "\n".join(line for line in text.splitlines() if not line.startswith("TOKEN:")).strip()
        + "\n"
    )
