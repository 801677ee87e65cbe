"""The ruleset card: what the shell may know about a ruleset without importing it
(docs/design.md: Engine contract, the ruleset card). `engine.core` hands it on with the
rest of the contract, from where every ruleset and the shell import it.
"""

from __future__ import annotations

from engine.errors import Wording

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from engine.balance_study import BalanceStudy
from engine.errors import Wording
from engine.public_roster import (
    PublicCharacter,
    listed_characters,
    no_board,
    no_board_text,
    no_setup_name,
)
from engine.secret_fields import SecretFields
from engine.setup_variants import SetupVariants


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


def no_reserved_form(name: str) -> str | Wording | None:
    """The default `RulesetCard.reserved_form`: no name reads as anything of the ruleset."""
    return None


def no_character_summary(view: Mapping[str, Any]) -> tuple[str | Wording, ...]:
    """The default `RulesetCard.character_summary`: nothing beyond the shell's own facts."""
    return ()


@dataclass(frozen=True)
class RulesetCard:
    """What the shell may know about a ruleset without importing it (docs/design.md:
    Engine contract, the ruleset card).

    - `game_id_prefix`: the start of a game id (`inf1`, `ww3`).
    - `phase_kinds`: every `Phase.kind` in the order a player meets them, with its words
      and its default deadline length (the shell keeps no schedule of its own).
    - `orders`: the full order table for HELP; `argument_grammars` (order, grammar text,
      a Wording when its sentences are worded in the reader's language)
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
      where, bonds, what it carries or has left (`pbp show`); each line a Wording or
      a string (the desk words a Wording in the host's language).
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
    - `texts`: its other sentences a player reads (`word` words the board's) (docs/design.md:
      No English left).
    - `rules_version`: the version of its rules, bumped by every change to its rulings or
      to the shape of its state (docs/design.md: Releases and upgrades); a game records the
      version it started under.
    """

    game_id_prefix: str
    phase_kinds: tuple[PhaseKind, ...]
    orders: tuple[OrderLine, ...]
    argument_grammars: tuple[tuple[str, str | Wording], ...] = ()
    reserved_words: frozenset[str] = frozenset()
    reserved_form: Callable[[str], str | Wording | None] = no_reserved_form
    npc_kinds: tuple[str, ...] = ()
    choosing_kind: str = ""
    public_orders: tuple[str, ...] = ()
    take_back_words: tuple[tuple[str, str], ...] = ()
    roles: tuple[tuple[str, str, str], ...] = ()
    character_summary: Callable[[Mapping[str, Any]], tuple[str | Wording, ...]] = (
        no_character_summary
    )
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
