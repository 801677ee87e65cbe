"""A stored game read once: its typed record (`pbp.game.record`), its decoded state and
open phase (docs/design.md: Storage), and `save`, the one writer of a game's record. The
phase clock the record describes is read through `pbp.game.clock`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property
from typing import Any, Callable, Mapping, TypeVar

from engine.core import Phase, PlayerStatus, Ruleset, closest
from engine.names import match_name
from pbp.timezones import as_utc
from pbp.errors import UserError
from pbp.game.order_row import OrderRow
from pbp.storage.drafts import DraftBook
from pbp.game.clock import PhaseClock, clock_of
from pbp.game.decode_memo import decoded, memo_of
from pbp.game.options import VOTES, defaults
from pbp.game.vote_channels import thread_only
from pbp.game.record import GameRecord
from pbp.game.record_parts import Roster
from pbp.moderator import Moderator
from pbp.release import DATA_FORMAT, pbp_version
from pbp.render.forms import order_form
from pbp.render.renderer import FINISHED, Renderer
from pbp.storage.datafolder import GameFile
from pbp.storage.host_token import host_token

Made = TypeVar("Made")  # what StoredGame._once makes


@dataclass(frozen=True)
class StoredGame:
    """A game's record with its state and open phase, read once."""

    file: GameFile
    record: GameRecord
    rules: Ruleset
    state: Any
    phase: Phase | None
    # The document the record was decoded from: `load` hands this game out again while the
    # file holds an equal one.
    document: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def filed_phase(self) -> str:
        """The phase mail about the game is filed under now: the open one, or `FINISHED`."""
        return self.record.phase_id or FINISHED

    @property
    def open_phase(self) -> Phase:
        """The open phase of a game that must not be over (a host's change needs one)."""
        if self.phase is None:
            raise UserError(f"Game {self.id} is over; there is nothing to change.")
        return self.phase

    def moderator_option(self, name: str) -> str:
        """One of the moderator's options (pbp.game.options) as stored, or its default for
        the game's ruleset when the game was made before the option existed."""
        stored = self.record.moderator_options.get(name)
        return str(stored) if stored is not None else defaults(self.rules.card)[name]

    @property
    def opened(self) -> datetime:
        """When the open phase opened (or the last one, once the game is over)."""
        return as_utc(self.record.opened)

    @property
    def votes(self) -> str:
        """Where public orders are taken: `mail`, `thread` or `both` (pbp.game.vote_channels)."""
        return self.moderator_option(VOTES)

    def thread_only(self, name: str) -> frozenset[str]:
        """The public orders `name` gives in the thread only, not by mail, now (none for a
        player silenced for the day, who votes by mail; pbp.game.vote_channels)."""
        if self.votes != "thread" or self.phase is None or name not in self.phase.actors:
            return frozenset()
        return thread_only(self.rules.card, self.votes, self.status(name).silenced)

    @property
    def roster(self) -> Roster:
        return self.record.roster

    @cached_property
    def _made(self) -> dict[tuple[str, str | None], Any]:
        return {}

    def _once(self, what: str, name: str | None, make: Callable[[], Made]) -> Made:
        """`make()`, made once per stored game (which `load` hands out again while the
        record is unchanged): a resolution's reports and its post's leak check read the same
        views, and a batch of order mails the same statuses and forms. Callers only read
        what they get."""
        made = self._made
        if (what, name) not in made:
            made[what, name] = make()
        kept: Made = made[what, name]
        return kept

    def view(self, name: str | None) -> Any:
        """The ruleset's view of the state for `name` (None: the public view)."""
        return self._once("view", name, lambda: self.rules.view(self.state, name))

    def status(self, name: str) -> PlayerStatus:
        """What the shell may know of `name` now (engine.core.PlayerStatus)."""
        return self._once("status", name, lambda: self.rules.status(self.state, name))

    def dead(self) -> set[str]:
        """The characters who are dead now (deaths are public)."""
        return {name for name in self.record.characters if not self.status(name).alive}

    @property
    def clock(self) -> PhaseClock:
        return clock_of(self.record)

    def zone_of(self, name: str | None) -> str:
        """The roster time zone of the player of character `name` ("" means UTC)."""
        return self.roster.zone_of(name)

    def token(self, name: str) -> str:
        return self.record.tokens[name]

    def game_facts(self) -> dict[str, Any]:
        """What every mail template knows of the game; `played_by` names the newcomer who
        plays a character after a substitution (mail greets them by their own name)."""
        played_by = {
            p.name: p.played_by for p in self.roster if p.played_by and p.played_by != p.name
        }
        thread = self.thread_address
        return {
            "id": self.id,
            "ruleset": self.record.ruleset,
            **({"played_by": played_by} if played_by else {}),
            **({"thread": thread} if thread else {}),
        }

    @property
    def thread_address(self) -> str:
        """The address of the game's thread when it takes votes ("" otherwise, or before
        its first post): every mail that sends a player there links it."""
        return "" if self.votes == "mail" else DraftBook(self.file).thread_address()

    def deadline_text(self, name: str | None = None) -> str:
        """The deadline in `name`'s roster time zone and in UTC, in their language."""
        return self.clock.describe(self.zone_of(name), self.roster.language_of(name))

    def renderer_of(self, moderator: Moderator, name: str) -> Renderer:
        """The renderer of mail to the player of character `name`, in their language (an
        NPC's mail goes to the host: the host's language)."""
        if name in self.record.npc_names:
            return moderator.host_renderer
        return moderator.renderer_for(self.roster.language_of(name))

    def form(self, name: str) -> dict[str, Any] | None:
        if name in self.record.npc_names:
            return self.npc_form(name)  # not kept: its host token may be made by this call
        return self._once(
            "form",
            name,
            lambda: order_form(
                self.id,
                self.phase,
                name,
                self.token(name),
                self.deadline_text(name),
                self.shared_channels(name),
                self.take_back_words(name),
            ),
        )

    def shared_channels(self, name: str) -> tuple[str, ...]:
        """The team channels `name` belongs to now (none once the game is over) and shares
        with someone: a channel needs someone to talk to, so the only member of a team (a
        lone wolf: the only one of the setup, or the last alive) gets no form for it and
        writes to nobody there (docs/design.md: What the host's fourth walk changed)."""
        if self.phase is None:
            return ()
        return tuple(
            channel
            for channel in self.status(name).channels
            if any(
                channel in self.status(other).channels
                for other in self.record.characters
                if other != name
            )
        )

    def take_back_words(self, name: str) -> dict[str, str]:
        """Each public order `name` gives in the thread only, with the word a post takes it
        back with (the card's `take_back_words`: VOTE -> UNVOTE)."""
        words = {keyword: word for word, keyword in self.rules.card.take_back_words}
        return {keyword: words.get(keyword, "") for keyword in self.thread_only(name)}

    def npc_form(self, name: str) -> dict[str, Any] | None:
        """The NPC `name`'s form, mailed to the host: the game's host token (the host's
        one secret for the game) and a line `NPC: <name>` saying whose orders these are
        (pbp.host.npc_mail reads it back). Call inside a transaction: the host token is
        made on first use."""
        form = order_form(
            self.id, self.phase, name, host_token(self.file), self.deadline_text(name)
        )
        return {**form, "npc": name} if form else None

    def latest_orders(self, phase_id: str) -> dict[str, OrderRow]:
        """Each player's latest accepted block for a phase (later blocks replace earlier).
        Rows are in the order they were written, so the last one of a player wins. Only
        the phase's rows are looked at (pbp.storage.journal.LOOKUPS): the log holds every
        phase's orders.
        """
        latest: dict[str, OrderRow] = {}
        for row in self.file.orders.where("phase", phase_id):
            latest[row["player"]] = OrderRow.from_row(row)
        return latest

    def standing_lines(self, player: str) -> list[str]:
        """`player`'s accepted order lines for the open phase (none: an empty list)."""
        row = self.latest_order(self.open_phase.id, player)
        return row.lines if row else []

    def latest_order(self, phase_id: str, player: str) -> OrderRow | None:
        """`player`'s latest accepted block for a phase, or None; made from that
        player's rows of the phase only (a receipt asks it for every mail that is rejected)."""
        rows = self.file.orders.where("phase", phase_id, also=("player", player))
        return OrderRow.from_row(rows[-1]) if rows else None

    def character(self, player: str) -> str:
        """The character or NPC called `player`, found as an order finds a name: case and
        accents ignored, never across scripts (`jose` is José; docs/design.md: Command line)."""
        names = self.record.characters
        name = match_name(player, names)
        if name is None:
            guess = closest(player, names)
            hint = f"did you mean {guess}?" if guess else f"they are: {', '.join(names)}."
            raise UserError(f"There is no player or NPC {player!r} in game {self.id}; {hint}")
        return name


def load(moderator: Moderator, game_id: str) -> StoredGame:
    """The stored game; the same one again while its record is unchanged (what it made
    once, `StoredGame._once`, stays valid: nothing changes a record in place)."""
    file = moderator.folder.game(game_id)
    document = file.record()
    memo = memo_of(file)
    kept = memo.loaded
    if isinstance(kept, StoredGame) and kept.document == document:
        rules = moderator.rules(kept.record.ruleset)
        if type(kept.rules) is type(rules):
            return kept
    record = GameRecord.from_json(document)
    rules = moderator.rules(record.ruleset)
    state, phase = decoded(file, rules, record.state)
    game = StoredGame(file, record, rules, state, phase, document)
    memo.loaded = game
    return game


def rewritten(game: StoredGame, state: Any, phase: Phase | None) -> StoredGame:
    """The game as its file holds it after a write in the open transaction that stored
    `state` (already decoded by the caller, so not decoded again)."""
    document = game.file.record()
    return StoredGame(game.file, GameRecord.from_json(document), game.rules, state, phase, document)


def record_of(file: GameFile) -> GameRecord:
    """A game's record without its state decoded (a scan over every game reads only this)."""
    kept = memo_of(file).loaded
    document = file.record()
    if isinstance(kept, StoredGame) and kept.document == document:
        return kept.record
    return GameRecord.from_json(document)


def save(game: StoredGame, record: GameRecord, since: GameRecord | None = None) -> None:
    """The one writer of a game's record: writes the keys `record` changes against the
    record `game` was loaded with (or `since`, read later in the same transaction), so a
    key written meanwhile by another (the outbox's Message-ID key) stays. Call inside the
    file's transaction when other writes go with it. The record is stamped with the data
    format and the release that wrote it (docs/design.md: Releases and upgrades)."""
    stamped = replace(record, data_format=DATA_FORMAT, written_by=pbp_version())
    before, after = (since or game.record).to_json(), stamped.to_json()
    changed = {
        key: value for key, value in after.items() if key not in before or before[key] != value
    }
    removed = [key for key in before if key not in after]
    if changed or removed:
        game.file.update_record(changed, removed)


def running(moderator: Moderator, game_id: str) -> StoredGame:
    """The game, which must not be over (a host's change needs an open phase)."""
    game = load(moderator, game_id)
    if game.phase is None:
        raise UserError(f"Game {game_id} is over; there is nothing to change.")
    return game
