"""The engine contract shared by every ruleset (docs/design.md: Engine contract).

A ruleset is a pure object: it never reads a clock, a file, a socket or a global.
Everything a player may see leaves the engine through `view()` or through the events of a
`Resolution`; the moderator shell (`pbp/`) only moves those values around.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from json.encoder import encode_basestring_ascii
from typing import Any, Callable, Mapping, Protocol, Sequence

# The contract is imported from here alone; its errors, values and options live beside it.
from engine.contract_values import (
    PlayerSpec as PlayerSpec,
    OrderSpec as OrderSpec,
    Phase as Phase,
    Event as Event,
    Result as Result,
    Resolution as Resolution,
    PlayerStatus as PlayerStatus,
)
from engine.errors import (
    OrderError as OrderError,
    OrderSyntaxError as OrderSyntaxError,
    IllegalOrderError as IllegalOrderError,
    OrderBlockError as OrderBlockError,
    GameSetupError as GameSetupError,
    HostActionError as HostActionError,
    did_you_mean as did_you_mean,
    closest as closest,
)
from engine.order_blocks import parse_order_block as parse_order_block
from engine.public_roster import (
    PublicCharacter as PublicCharacter,
    listed_characters as listed_characters,
    no_board as no_board,
    no_board_text as no_board_text,
    no_setup_name as no_setup_name,
)
from engine.balance_study import (
    BalanceStudy as BalanceStudy,
    Calibration as Calibration,
    Anchor as Anchor,
)
from engine.setup_variants import SetupVariants as SetupVariants
from engine.secret_fields import SecretFields as SecretFields
from engine.skill import SkillLike
from engine.option_specs import (
    OptionSpec as OptionSpec,
    ON_WORDS as ON_WORDS,
    OFF_WORDS as OFF_WORDS,
    parse_on_off as parse_on_off,
    resolve_options as resolve_options,
)


# --------------------------------------------------------------------------- chance
def phase_rng(seed: Any, phase_id: str, purpose: str = "") -> random.Random:
    """The generator for one phase: seeded by (game seed, phase id[, purpose]).

    Hashing with SHA-256 keeps the draw independent of PYTHONHASHSEED and of Python's
    string-seeding details, so a replay in another process is byte-identical.
    """
    material = json_strings(str(seed), phase_id, purpose)
    return random.Random(int.from_bytes(hashlib.sha256(material).digest(), "big"))


def json_strings(*texts: str) -> bytes:
    """The bytes of `json.dumps(list(texts))`, what the draws hash: written out with the
    encoder's own string escaping, because a simulation draws hundreds of times per game
    and `json.dumps` spent most of a draw's time setting itself up."""
    return ("[" + ", ".join(map(encode_basestring_ascii, texts)) + "]").encode()


def canonical_json(value: Any) -> str:
    """The byte-stable text of a JSON value (sorted keys, no spaces): what replays compare."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


# --------------------------------------------------------------------------- the card
@dataclass(frozen=True)
class OrderLine:
    """One row of a ruleset's full order table (HELP lists every phase's orders).

    `phases` is when, as the rules write it (`Tn-decision`); `kinds` the `Phase.kind`
    values it covers; `order` its syntax (`USE SEER <player>`); `who` gives it; `note`
    says what it does. `hint` is the shorter note an order form prints beside the order
    (defaults to `note`)."""

    phases: str
    kinds: tuple[str, ...]
    order: str
    who: str
    note: str = ""
    hint: str = ""

    @property
    def form_note(self) -> str:
        return self.hint or self.note


@dataclass(frozen=True)
class PhaseKind:
    """A schedule slot (`Phase.kind`), the words a player reads for it in the schedule, and
    the deadline length its phases have unless the host gives another (`pbp new-game
    --schedule`), written as a host writes one (`48h`, `1d12h`)."""

    kind: str
    label: str
    length: str = "24h"


def phase_id_words(phase_id: str) -> str:
    """The default `RulesetCard.phase_words`: the phase id itself."""
    return phase_id


def no_reserved_form(name: str) -> str | None:
    """The default `RulesetCard.reserved_form`: no name reads as anything of the ruleset."""
    return None


def no_character_summary(view: Mapping[str, Any]) -> tuple[str, ...]:
    """The default `RulesetCard.character_summary`: nothing beyond the shell's own facts."""
    return ()


@dataclass(frozen=True)
class RulesetCard:
    """What the shell may know about a ruleset without importing it (docs/design.md:
    Engine contract, the ruleset card).

    - `game_id_prefix`: the start of a game id (`inf1`, `ww3`).
    - `phase_kinds`: every `Phase.kind` in the order a player meets them, with its words
      and its default deadline length (the shell keeps no schedule of its own).
    - `orders`: the full order table for HELP; `argument_grammars` (order, grammar text)
      for arguments with a grammar of their own.
    - `reserved_words`: words a name may not be (the grammar's keywords), and
      `reserved_form(name)`: why else the name cannot be one, as the end of a sentence
      after the name (`reads as a room; pick a name that is not a room`), or None.
    - `npc_kinds`: the kinds of host-run characters the ruleset accepts (empty: none).
    - `choosing_kind`: the phase kind in which players choose their own role (or "").
    - `public_orders`: the keywords of orders that are public once accepted (votes), which
      a running tally may show, and which a game may take in its public thread.
    - `take_back_words`: (word, public order keyword) pairs: the word a forum post writes
      to take a public order back (`UNVOTE` for `VOTE`), read as taking that order back.
    - `roles`: every role or class a character may have, as (name, side, what it does) in
      the rules' words (`pbp rules`).
    - `character_summary(view)`: the host's lines about one character, read from that
      character's own view (`view(state, name)`): role or class and team, alive or dead and
      where, bonds, what it carries or has left (`pbp show`).
    - `channel_orders`: (channel, order keyword) pairs: orders a team settles together,
      whose current picks every message and receipt in that channel shows its members
      (Werewolf: the pack's `KILL`s).
    - `phase_words(phase_id)`: the phase as a player reads it in a mail (`Night 1`,
      `Day 2 — vote`); the id itself stays in order blocks, where it is read back.
    - `side_names`: (side, words) pairs naming each side that can win as a host names it
      (`village` -> `the Village`); `victory_paths`: (path, words) pairs saying how a game
      ended (`no-wolves-left` -> `no wolf is left alive`).
    - `default_moderator_options`: (option, value) pairs of the moderator's options whose
      default differs for this ruleset (Werewolf's dead keep their eyes open:
      `spectators=dead`).
    - `npc_teams`: the teams an NPC may be on; `npc_explained`: the NPC-only classes and
      teams the HELP mail explains when an NPC of one plays.
    - `setup_files`: the options a host gives as a file (`pbp new-game --map FILE`).
    - `accepts_extra_roles`: whether the host's role modules (`[roles] modules`) extend it.
    - `demo_players`: how many players `pbp demo` seats by default, and `demo_seed` the
      seed it plays by default (one that shows the game at its best for a first look:
      at least two days, votes that decide something); `length_unit`: what a
      game's length is counted in (`pbp balance`).
    - `setup_name(seats)`: what a finished game's setup was made of, from its (role, team)
      pairs (`pbp stats`): the roles, or the number of Reds.
    - `public_roster(view)`: every character as everyone may know it (`PublicCharacter`),
      read from the ruleset's own public view; the shell reads no view key itself.
    - `secret_fields`: which fields of its views hold hidden facts, and how a place reads
      (`SecretFields`): what the leak check looks for in a public post.
    - `board_text(view, word)`, `board_svg(view, word)`: the board a view shows as text and
      SVG ("": none), `word` wording each of its sentences in the reader's language.
    - `balance_study`: what docs/balance.md plays of it, and its calibration (`BalanceStudy`).
    - `setup_variants`: a setup in words, its neighbours and the proposed setup (`pbp balance`).
    - `keyword_names`: (language, ((KEYWORD, its name), …)) pairs: each order keyword as
      a player writing that language writes it (`VOTE` -> de `ABSTIMMEN`); the shell
      accepts every language's names from every player and turns them into the English
      keyword before the ruleset reads a line (docs/design.md: Languages — order keywords).
    - `texts`: its other sentences a player reads (`word` words the board's)
      (docs/design.md: No English left).
    - `rules_version`: the version of its rules, bumped by every change to its rulings or
      to the shape of its state (docs/design.md: Releases and upgrades); a game records the
      version it started under.
    """

    game_id_prefix: str
    phase_kinds: tuple[PhaseKind, ...]
    orders: tuple[OrderLine, ...]
    argument_grammars: tuple[tuple[str, str], ...] = ()
    reserved_words: frozenset[str] = frozenset()
    reserved_form: Callable[[str], str | None] = no_reserved_form
    npc_kinds: tuple[str, ...] = ()
    choosing_kind: str = ""
    public_orders: tuple[str, ...] = ()
    take_back_words: tuple[tuple[str, str], ...] = ()
    roles: tuple[tuple[str, str, str], ...] = ()
    character_summary: Callable[[Mapping[str, Any]], tuple[str, ...]] = no_character_summary
    secret_fields: SecretFields = SecretFields()
    channel_orders: tuple[tuple[str, str], ...] = ()
    phase_words: Callable[[str], str] = phase_id_words
    side_names: tuple[tuple[str, str], ...] = ()
    victory_paths: tuple[tuple[str, str], ...] = ()
    default_moderator_options: tuple[tuple[str, str], ...] = ()
    keyword_names: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    texts: tuple[str, ...] = ()

    @property
    def npcs_allowed(self) -> bool:
        return bool(self.npc_kinds)

    # What an accepted typed order (a value `parse_orders` returned) makes public at once,
    # as a running tally shows it (`Chen`, `NO LYNCH`), or None for an order that stays
    # secret; and the keywords of the secret orders the end-of-game post lists, phase by
    # phase (the night actions, the terminal uses).
    public_choice: Callable[[Any], str | None] = lambda order: None
    logged_orders: tuple[str, ...] = ()

    npc_teams: tuple[str, ...] = ()
    npc_explained: tuple[str, ...] = ()
    setup_files: tuple[str, ...] = ()
    accepts_extra_roles: bool = False
    demo_players: int = 8
    demo_seed: str = "1"
    length_unit: str = "turns"
    setup_name: Callable[[Sequence[tuple[str, str]]], str] = no_setup_name
    public_roster: Callable[[Mapping[str, Any]], tuple[PublicCharacter, ...]] = listed_characters
    board_text: Callable[[Mapping[str, Any], Callable[[str], str]], str] = no_board_text
    board_svg: Callable[[Mapping[str, Any], Callable[[str], str]], str] = no_board
    balance_study: BalanceStudy = BalanceStudy()
    setup_variants: SetupVariants = SetupVariants()
    rules_version: int = 1


# --------------------------------------------------------------------------- contract
class Ruleset(Protocol):
    """What every ruleset offers (docs/design.md: Engine contract).

    States are immutable values; `to_json` / `from_json` round-trip them through plain
    JSON. Orders are typed values whose `str()` is their canonical text, which
    `parse_orders` accepts back unchanged.
    """

    name: str
    options: Mapping[str, OptionSpec]
    card: RulesetCard

    def new_game(self, players: Sequence[PlayerSpec], seed: Any, options: Mapping[str, Any]) -> Any:
        """A fresh game; raises GameSetupError with a one-sentence reason."""

    def to_json(self, state: Any) -> dict[str, Any]: ...

    def from_json(self, data: Mapping[str, Any]) -> Any: ...

    def phase(self, state: Any) -> Phase | None:
        """The open phase, or None once the game is over."""

    def parse_orders(self, state: Any, player: str, lines: Sequence[str]) -> tuple[Any, ...]:
        """The typed orders of one block's order lines (comments and blanks skipped).

        Raises OrderBlockError holding every OrderError (line numbers 1-based within
        `lines`). Judged only on what `player` already knows.
        """

    def resolve(self, state: Any, orders: Mapping[str, Sequence[Any]]) -> Resolution:
        """Resolve the open phase from every player's orders (missing: the rules' default)."""

    def host_kill(self, state: Any, player: str, reason: str) -> Resolution:
        """The host removes a character at once (modkill), with a public reason; raises
        HostActionError when that player cannot be removed."""

    def view(self, state: Any, player: str | None) -> dict[str, Any]:
        """What `player` may know (None: the public), as JSON. The only gate to the state."""

    def result(self, state: Any) -> Result | None:
        """How the game ended, or None while it goes on."""

    def status(self, state: Any, player: str) -> PlayerStatus:
        """What `player`'s character is now, told only from what they may know."""

    def scripted_orders(self, state: Any, player: str, seed: Any) -> str:
        """Order lines a scripted player new to the game would send now (for the demo):
        `scripted_player` fed only `view(state, player)` and the order form."""

    def scripted_player(self, player: str, skill: SkillLike) -> Any:
        """A scripted player for one character (engine.players.ScriptedPlayer) of skill
        0..1, one number or one per side (engine.players.Skill), which sees only what
        `player` may see (docs/balance.md)."""

    def game_statistics(self, state: Any) -> dict[str, Any]:
        """Host-side facts about a game for `pbp simulate` (never shown to players):
        `{"turns": int, "deaths_by_cause": {cause: n}, "actions_used": {action: n}}`, and
        `"npc_deaths": {kind: n}` for a ruleset with host-run characters (never players)."""

    # What a ruleset may add; these defaults stand for a ruleset without it. A ruleset
    # class names `Ruleset` as its base to inherit them.
    def views(self, state: Any, players: Sequence[str]) -> dict[str, dict[str, Any]]:
        """`view(state, player)` for each of `players`, made together (the simulation asks
        for every actor's view in every phase): a ruleset may make the part every player
        sees alike once and share it between the views, so these views are only read."""
        return {player: self.view(state, player) for player in players}

    def parse_standing_orders(
        self, state: Any, player: str, lines: Sequence[str]
    ) -> tuple[Any, ...]:
        """The typed orders of a block accepted earlier, as the deadline reads it (Werewolf
        re-reads a block against the phase as it stands now); by default `parse_orders`."""
        return self.parse_orders(state, player, lines)

    def host_notes(self, state: Any, orders: Mapping[str, Sequence[Any]]) -> tuple[str, ...]:
        """Remarks for the host on the orders in so far (Werewolf: a split pack)."""
        return ()

    def setup_warnings(self, state: Any) -> tuple[str, ...]:
        """What the host should know about a new game's setup (a role that cannot act)."""
        return ()

    def host_view(self, state: Any) -> dict[str, Any] | None:
        """Everything, with the facility map for rulesets that have one (`pbp show`); None
        when the ruleset has no map to draw."""
        return None
