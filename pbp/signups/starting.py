"""Starting a game from its sign-ups (docs/design.md: Sign-ups and spectators): `pbp start
<game>`, or the cycle at the closing time when at least the minimum signed up. The first
`players_max` sign-ups are dealt their roles through ordinary game creation (pbp.game.create:
welcome mails and all); the rest stay on the substitutes' list, each told so. When the closing
time passes with too few sign-ups, the host is told once and sign-ups stay open: the game starts
at the next cycle after the minimum is reached, or when the host says so.
"""

from __future__ import annotations

from dataclasses import replace

from pbp.render.languages import SOURCE_LANGUAGE
from pbp.timezones import as_utc, to_text
from pbp.errors import UserError
from pbp.game.notifying.host_contact import HOST
from pbp.game.create import create_game
from pbp.game.stored import StoredGame, load
from pbp.moderator import Moderator
from pbp.game.record_parts import Npc, RosterPlayer
from pbp.render.verdicts import Note
from pbp.storage.open_games import OPEN, STARTED, OpenGame, open_game, open_games
from pbp.storage.signup_record import SignupRecord

KIND = "signup"


def start_signed_up(moderator: Moderator, game_id: str) -> StoredGame:
    """Deal the roles of an open game to its sign-ups; refused below the minimum."""
    signups = open_game(moderator.folder, game_id)
    record = signups.record
    if record.status != OPEN:
        raise UserError(f"Game {game_id} has started already; see pbp status {game_id}.")
    players = signups.players
    if game_id in moderator.folder.game_ids():
        game = load(moderator, game_id)
        if {player.email for player in game.roster} != {e.email for e in players}:
            raise UserError(
                f"A game called {game_id} exists already, with other players; it cannot also be "
                "started from these sign-ups."
            )
        _mark_started(moderator, signups)  # a crash came after the game's creation
        return game
    if len(players) < record.players_min:
        raise UserError(
            f"Game {game_id} has {len(players)} confirmed sign-ups and needs at least "
            f"{record.players_min}; wait for more sign-ups before starting it."
        )
    roster = [
        RosterPlayer(
            entry.name,
            entry.email,
            entry.timezone,
            entry.forum_name,
            language=entry.language or SOURCE_LANGUAGE,
        )
        for entry in players
    ]
    npcs = [Npc.from_json(npc) for npc in record.npcs]
    forum = {"dialect": record.dialect} if record.dialect else {}
    game = create_game(
        moderator,
        record.ruleset,
        roster,
        npcs,
        record.seed or None,
        dict(record.options),
        record.schedule_text or None,
        game_id,
        forum_settings=forum,
    )
    _mark_started(moderator, signups)
    return game


def _mark_started(moderator: Moderator, signups: OpenGame) -> None:
    """Close the sign-ups and tell each substitute their place on the list."""
    record = signups.record
    game_id = record.id
    with signups.file.transaction():
        signups.save(
            replace(
                record,
                status=STARTED,
                started=to_text(moderator.clock()),
                pending={},
                dealt=len(signups.players),
            )
        )
        for place, entry in enumerate(signups.substitutes, start=1):
            _tell(
                moderator,
                signups,
                entry.name,
                entry.email,
                entry.language or SOURCE_LANGUAGE,
                Note(
                    "started_without_you",
                    game_id=game_id,
                    players_max=record.players_max,
                    place=place,
                ),
            )


def start_due(moderator: Moderator) -> list[str]:
    """At each cycle: start every open game whose closing time has passed with at least the
    minimum signed up; tell the host (once) of one that closed with too few. Returns what
    was done, one sentence each. One game's failure never stops the others: it is told to
    the host and the game stays open."""
    now = moderator.clock()
    said = []
    for signups in list(open_games(moderator.folder)):
        record = signups.record
        if record.status != OPEN or as_utc(record.closes) > now:
            continue
        count = len(signups.players)
        if count >= record.players_min:
            try:
                game = start_signed_up(moderator, record.id)
            except UserError as error:
                said.append(f"Game {record.id} could not start at its closing time: {error}")
                if not record.start_failed:
                    _tell_host(
                        moderator,
                        signups,
                        Note("could_not_start", game_id=record.id, error=str(error)),
                        replace(record, start_failed=True),
                    )
                continue
            said.append(f"Game {game.id} started at its closing time with {count} players.")
        elif not record.host_told:
            _tell_host(
                moderator,
                signups,
                Note(
                    "short_of_players",
                    game_id=record.id,
                    count=count,
                    players_min=record.players_min,
                ),
                replace(record, host_told=True),
            )
            said.append(
                f"Game {record.id} closed with {count} of {record.players_min} players; the host is"
                " told."
            )
    return said


def _tell_host(moderator: Moderator, signups: OpenGame, note: Note, record: SignupRecord) -> None:
    address = moderator.settings.host_address
    with signups.file.transaction():
        signups.save(record)
        if address:
            _tell(moderator, signups, HOST, address, moderator.settings.host_language, note)


def _tell(
    moderator: Moderator, signups: OpenGame, name: str, address: str, language: str, note: Note
) -> None:
    """Mail `note` (worded by templates/mail/_verdicts.j2) in the sign-up mail's frame, in
    the reader's `language`."""
    record = signups.record
    mail = moderator.renderer_for(language).render(
        KIND,
        record.ruleset,
        game={"id": record.id, "ruleset": record.ruleset},
        name=name,
        answer=note,
        code="",
    )
    moderator.outbox.queue(
        signups.file, phase="signup", recipient=name, address=address, kind=KIND, mail=mail
    )
