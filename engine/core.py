"""The engine contract shared by every ruleset (docs/design.md: Engine contract).

A ruleset is a pure object: it never reads a clock, a file, a socket or a global.
Everything a player may see leaves the engine through `view()` or through the events of a
`Resolution`; the moderator shell (`pbp/`) only moves those values around.
"""

from __future__ import annotations

import hashlib
import json
import random
from json.encoder import encode_basestring_ascii
from typing import Any, Mapping, Protocol, Sequence

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
from engine.ruleset_card import (
    OrderLine as OrderLine,
    PhaseKind as PhaseKind,
    RulesetCard as RulesetCard,
    phase_id_words as phase_id_words,
    no_reserved_form as no_reserved_form,
    no_character_summary as no_character_summary,
)
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
