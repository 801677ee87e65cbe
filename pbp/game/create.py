"""Starting a game from a roster (docs/design.md: Storage): its state, tokens, first
deadline and a welcome mail to every player, all in one durable write, then its entry in
the registry."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any, Mapping, Sequence

from engine.core import GameSetupError, Phase, Ruleset
from pbp import schedule
from pbp.timezones import to_text
from pbp.errors import UserError
from pbp.storage.drafts import DraftBook
from pbp.game.options import split_options
from pbp.game.option_values import OptionValueError
from pbp.game.judging.token_guard import new_token
from pbp.game.stored import StoredGame, load
from pbp.game.resolution import for_host
from pbp.game.checkpoints import with_checkpoint
from pbp.game.record import GameRecord
from pbp.game.record_parts import Npc, Roster, RosterPlayer, player_specs
from pbp.game.roster_file import check_unique
from pbp.game.notifying.welcome import welcome_facts
from pbp.moderator import Moderator
from pbp.release import DATA_FORMAT, pbp_version
from pbp.storage.host_token import host_token

NPC_WELCOME = "npc-welcome"  # the outbox kind of an NPC's welcome, mailed to the host


def _welcome_everyone(
    moderator: Moderator, game: StoredGame, forum_settings: Mapping[str, Any] | None
) -> None:
    """Inside the new game's first write: its forum settings, each player's welcome, each
    NPC's welcome to the host, then the listeners (the forum drafts the opening post)."""
    file, record, rules, state = game.file, game.record, game.rules, game.state
    if forum_settings:
        DraftBook(file).update_game_settings(dict(forum_settings))
    for player in record.roster:
        mail = moderator.renderer_for(player.language).render(
            "welcome",
            record.ruleset,
            game=game.game_facts(),
            player=player.name,
            token=record.tokens[player.name],
            view=rules.view(state, player.name),
            form=game.form(player.name),
            **welcome_facts(game, player.name),
        )
        moderator.outbox.queue(
            file,
            phase=record.phase_id or "setup",
            recipient=player.name,
            address=player.email,
            kind="welcome",
            mail=mail,
        )
    # The host plays the NPCs: each NPC's welcome (and form) goes to the host address.
    host_address = moderator.settings.host_address
    for name in record.npc_names if host_address else ():
        mail = moderator.host_renderer.render(
            "welcome",
            record.ruleset,
            game=game.game_facts(),
            player=name,
            token=host_token(file),
            view=rules.view(state, name),
            form=game.npc_form(name),
            **welcome_facts(game, name),
        )
        moderator.outbox.queue(
            file,
            phase=record.phase_id or "setup",
            recipient=name,
            address=host_address,
            kind=NPC_WELCOME,
            mail=for_host(mail, name),
        )
    for listener in moderator.after_game_created:
        listener(moderator, game)


def _check_cast(
    rules: Ruleset, ruleset: str, roster: Sequence[RosterPlayer], npcs: Sequence[Npc]
) -> None:
    """A UserError if two of the roster and NPCs share a name, or NPCs are given to a
    ruleset that has none."""
    check_unique([e.name for e in roster] + [n.name for n in npcs], "roster and --npc")
    if npcs and not rules.card.npcs_allowed:
        raise UserError(f"{ruleset.title()} has no NPCs; leave out --npc.")


def _deal(
    rules: Ruleset,
    roster: Sequence[RosterPlayer],
    npcs: Sequence[Npc],
    seed: str,
    options: dict[str, Any] | None,
) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """(the new game's state, its moderator options, the ruleset's options), or a UserError
    saying what in the options (or the ruleset's setup) cannot start a game."""
    specs = player_specs(roster, npcs)
    try:
        moderator_options, ruleset_options = split_options(options or {}, rules.card)
        return rules.new_game(specs, seed, ruleset_options), moderator_options, ruleset_options
    except (GameSetupError, OptionValueError) as error:
        raise UserError(str(error)) from None


def _opening(
    rules: Ruleset, state: Any, phase: Phase | None, plan: dict[str, str], now: datetime
) -> dict[str, Any]:
    """The new record's fields that say where and when it starts: its dealt state (also its
    first checkpoint), its first phase and deadline, and what wrote it."""
    state_json = rules.to_json(state)
    return dict(
        checkpoints=with_checkpoint((), "start", state_json),
        state=state_json,
        phase_id=phase.id if phase else "",
        opened=to_text(now),
        deadline=to_text(schedule.deadline_after(now, plan, phase.kind)) if phase else "",
        created=to_text(now),
        rules_version=rules.card.rules_version,
        data_format=DATA_FORMAT,
        written_by=pbp_version(),
    )


def create_game(
    moderator: Moderator,
    ruleset: str,
    roster: Sequence[RosterPlayer],
    npcs: Sequence[Npc] = (),
    seed: str | None = None,
    options: dict[str, Any] | None = None,
    schedule_text: str | None = None,
    game_id: str | None = None,
    forum_settings: Mapping[str, Any] | None = None,
) -> StoredGame:
    """Start a game: its state, tokens, first deadline and a welcome mail to every player,
    all in one durable write, then its entry in the registry. `forum_settings` are the
    game's own forum settings (a sign-up game's `dialect`), stored before the opening
    post is drafted."""
    rules = moderator.rules(ruleset)
    _check_cast(rules, ruleset, roster, npcs)
    plan = schedule.parse_schedule(schedule_text, rules.card.phase_kinds)
    seed = seed if seed is not None else secrets.token_hex(8)
    state, moderator_options, options = _deal(rules, roster, npcs, seed, options)
    folder = moderator.folder
    game_id = game_id or folder.next_game_id(rules.card.game_id_prefix)
    now = moderator.clock()
    phase = rules.phase(state)
    record = GameRecord(
        id=game_id,
        ruleset=ruleset,
        seed=seed,
        options=dict(options),
        moderator_options=moderator_options,
        roster=Roster(tuple(roster)),
        npcs=tuple(npcs),
        tokens={player.name: new_token() for player in roster},
        schedule=plan,
        resolved=(),
        result=None,
        **_opening(rules, state, phase, plan, now),
    )
    folder.add_game(
        game_id,
        ruleset,
        record.created,
        record.to_json(),
        lambda file: _welcome_everyone(
            moderator, StoredGame(file, record, rules, state, phase), forum_settings
        ),
    )
    return load(moderator, game_id)
