"""The games the corpus replies to, run by the real CLI over the embedded Maildir transport.

Two games are played once per session up to the phases the corpus needs, and a copy of
the data folder is kept at each (a "ground"): Werewolf at Day 1's nominations and vote
and at Night 1's Witch turn, Infiltration at Turn 1's movement and decision, their players
reading pbp's mail in one language (the roster's language column). Each corpus
case gets a fresh copy of its ground (`Ground.site`), so cases never see each other's
orders, and answers what a player got: the last mail in `<data>/mail/<address>/`.
"""

from __future__ import annotations

import contextlib
import email
import io
import re
import shutil
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from pathlib import Path

import engine
from pbp.cli import main
from pbp.storage.game_storage import game_tables
from pbp.mail.maildir import deliver
from pbp.render.languages import SOURCE_LANGUAGE
from tests.fixtures.harness import Sections, write_settings

MODERATOR = "pbp@pbp.test"
PLAYER_DOMAIN = "players.test"
WEREWOLF_NAMES = (
    "Alice",
    "Bruno",
    "Chloé",
    "Dmitri",
    "Elena",
    "Farid",
    "Greta",
    "Hugo",
    "Ingrid",
    "José",
)
INFILTRATION_NAMES = ("Alice", "Bruno", "Chloé", "Dmitri", "Elena", "Farid", "Greta", "Hugo")
SEED = "5"


def address_of(name: str) -> str:
    return f"{name.lower().replace('é', 'e')}@{PLAYER_DOMAIN}"


@dataclass(frozen=True)
class Scenario:
    """A phase of a game, the player who answers it, and the orders they usually mean."""

    key: str
    ruleset: str
    game: str
    phase: str
    player: str
    orders: tuple[str, ...]  # a valid order set for this player and phase
    address: str = ""  # the player's address; empty: `address_of(player)`

    def __post_init__(self) -> None:
        if not self.address:
            object.__setattr__(self, "address", address_of(self.player))


class Site:
    """One data folder and its settings: the CLI run in this process (`pbp.cli.main`)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.settings = root / "pbp.ini"
        self.data = root / "data"
        self.output = ""

    def write_settings(self, sections: Sections | None = None) -> None:
        write_settings(
            self.settings,
            sections
            or {
                "pbp": {
                    "data": self.data,
                    "transport": "maildir",
                    "from_address": MODERATOR,
                    "replies_per_sender_per_day": 100000,
                    "wrong_tokens_per_sender_per_day": 100000,
                }
            },
        )

    def cli(self, *arguments: str) -> str:
        with contextlib.redirect_stdout(io.StringIO()) as out:
            code = main([*arguments, "--settings", str(self.settings)])
        self.output = out.getvalue()
        if code != 0:
            raise AssertionError(f"pbp {' '.join(arguments)} failed ({code}): {self.output}")
        return self.output

    # ------------------------------------------------------------------ mail
    def mails_to(self, address: str) -> list[bytes]:
        """Every mail pbp sent to an address (the player's Maildir folder)."""
        return mails_in(self.data / "mail" / address)

    def deliver(self, data: bytes) -> None:
        deliver(self.data / "mail" / "inbox", data)

    def poll(self) -> str:
        return self.cli("poll")

    # ------------------------------------------------------------------ the game
    def record(self, game: str) -> dict:
        return next(iter(game_tables(self.data / "games" / f"{game}.json")["game"].values()))

    def recorded_orders(self, game: str, player: str) -> tuple[str, ...]:
        """The orders `pbp orders <game>` lists for a player in the open phase (empty when
        none are in)."""
        return recorded_orders(self.cli("orders", game), player)


def mails_in(folder: Path) -> list[bytes]:
    return (
        [path.read_bytes() for path in sorted((folder / "new").iterdir())]
        if (folder / "new").is_dir()
        else []
    )


def form_mail(mails: list[bytes], game: str, phase: str) -> bytes:
    """The one mail that brought the player the form of this phase (the phase's report)."""
    begin = re.compile(rf"^BEGIN ORDERS {re.escape(game)} {re.escape(phase)}\s*$", re.MULTILINE)
    found = [data for data in mails if begin.search(_text(data))]
    if len(found) != 1:
        raise AssertionError(f"{len(found)} mails hold the form of {game} {phase}, not one")
    return found[0]


def answer_to(mails: list[bytes], message_id: str) -> bytes | None:
    """pbp's answer to the mail with this Message-ID, if it sent one."""
    for data in mails:
        message = email.message_from_bytes(data, policy=policy.default)
        if str(message.get("In-Reply-To", "")).strip() == message_id:
            return data
    return None


def _text(data: bytes) -> str:
    message = email.message_from_bytes(data, policy=policy.default)
    body = message.get_body(("plain",)) if isinstance(message, EmailMessage) else None
    return str(body.get_content()) if body is not None else ""


def recorded_orders(overview: str, player: str) -> tuple[str, ...]:
    """A player's lines in the text of `pbp orders` (`  Name, received …:` then the lines
    indented by six spaces)."""
    lines = overview.splitlines()
    head = re.compile(rf"^  {re.escape(player)}, received ")
    for index, line in enumerate(lines):
        if head.match(line):
            found = []
            for order in lines[index + 1 :]:
                if not order.startswith("      "):
                    break
                found.append(order.strip())
            return tuple(line for line in found if not line.startswith("(no orders"))
    return ()


class Ground:
    """A saved data folder at one scenario's phase: every case starts from a copy."""

    def __init__(self, scenario: Scenario, folder: Path) -> None:
        self.scenario = scenario
        self.folder = folder

    def site(self, root: Path) -> Site:
        site = Site(root)
        shutil.copytree(self.folder, site.data)
        site.write_settings()
        return site


def build_grounds(root: Path, language: str = SOURCE_LANGUAGE) -> dict[str, Ground]:
    """Play both games to the corpus's phases, every player reading `language`, and save a
    ground at each."""
    grounds: dict[str, Ground] = {}
    for play in (_play_werewolf, _play_infiltration):
        for scenario, folder in play(root, language):
            grounds[scenario.key] = Ground(scenario, folder)
    return grounds


def _new_game(site: Site, ruleset: str, game: str, names: tuple[str, ...], language: str) -> None:
    roster = site.root / f"{game}-roster.csv"
    if language == SOURCE_LANGUAGE:  # the roster as written before languages
        roster.write_text(
            "name,email\n" + "".join(f"{n},{address_of(n)}\n" for n in names), encoding="utf-8"
        )
    else:
        roster.write_text(
            "name,email,timezone,forum_name,language\n"
            + "".join(f"{n},{address_of(n)},,,{language}\n" for n in names),
            encoding="utf-8",
        )
    site.cli(
        "new-game", "--ruleset", ruleset, "--roster", str(roster), "--seed", SEED, "--id", game
    )


def _advance_with_scripted_orders(
    site: Site, ruleset: str, game: str, names: tuple[str, ...], seed: int
) -> None:
    """Every player's scripted orders entered by the host, then the phase resolved."""
    rules = engine.ruleset(ruleset)
    state = rules.from_json(site.record(game)["state"])
    for name in names:
        orders = rules.scripted_orders(state, name, seed)
        if orders.strip():
            site.cli("submit", game, name, *orders.splitlines())
    site.cli("advance", game)


def _save(site: Site, root: Path, key: str) -> Path:
    folder = root / "grounds" / key
    shutil.copytree(site.data, folder)
    return folder


def _expect_phase(site: Site, game: str, phase: str) -> None:
    found = site.record(game)["phase_id"]
    if found != phase:
        raise AssertionError(
            f"game {game} reached {found}, not {phase}: the seeded game changed; "
            "update tests/clients/grounds.py"
        )


def _advance_with_orders(site: Site, game: str, orders: dict[str, str]) -> None:
    """The host enters these players' orders, then the phase is resolved."""
    for name, text in orders.items():
        site.cli("submit", game, name, *text.splitlines())
    site.cli("advance", game)


def _play_werewolf(root: Path, language: str) -> list[tuple[Scenario, Path]]:
    """The seed deals Bruno the Witch and Ingrid, José and Greta the pack; the host's orders
    put Ingrid and Farid on trial, lynch Farid and send the pack for Alice (the corpus's
    replies name these players, so the way there does not depend on the scripted players)."""
    site = Site(root / "werewolf")
    site.root.mkdir(parents=True)
    site.write_settings()
    _new_game(site, "werewolf", "ww1", WEREWOLF_NAMES, language)
    site.cli("advance", "ww1")  # night 0: nobody acts
    _expect_phase(site, "ww1", "D1-nominate")
    saved = [
        (
            Scenario("ww-nominate", "werewolf", "ww1", "D1-nominate", "Alice", ("NOMINATE Bruno",)),
            _save(site, root, "ww-nominate"),
        )
    ]
    _advance_with_orders(
        site,
        "ww1",
        {
            name: f"NOMINATE {'Ingrid' if index < 5 else 'Farid'}"
            for index, name in enumerate(WEREWOLF_NAMES)
        },
    )
    _expect_phase(site, "ww1", "D1-vote")
    saved.append(
        (
            Scenario("ww-vote", "werewolf", "ww1", "D1-vote", "Hugo", ("VOTE Ingrid",)),
            _save(site, root, "ww-vote"),
        )
    )
    _advance_with_orders(
        site, "ww1", {name: "VOTE Farid" for name in WEREWOLF_NAMES if name != "Farid"}
    )
    _expect_phase(site, "ww1", "N1")
    _advance_with_orders(site, "ww1", {name: "KILL Alice" for name in ("Ingrid", "José", "Greta")})
    _expect_phase(site, "ww1", "N1-witch")
    saved.append(
        (
            Scenario("ww-witch", "werewolf", "ww1", "N1-witch", "Bruno", ("POISON José",)),
            _save(site, root, "ww-witch"),
        )
    )
    return saved


def _play_infiltration(root: Path, language: str) -> list[tuple[Scenario, Path]]:
    """Everyone keeps the default class and stays put, but Bruno, a Green Sneaker (who may use
    a terminal whatever the Alert), walks to a History terminal that no guard is bound for:
    the corpus's replies use it at Turn 1's decision."""
    site = Site(root / "infiltration")
    site.root.mkdir(parents=True)
    site.write_settings()
    _new_game(site, "infiltration", "inf1", INFILTRATION_NAMES, language)
    rules = engine.ruleset("infiltration")
    saved = []
    _advance_with_orders(site, "inf1", {"Bruno": "CLASS SNEAKER"})
    _expect_phase(site, "inf1", "T1-movement")
    state = rules.from_json(site.record("inf1")["state"])
    saved.append(
        (
            Scenario(
                "inf-movement",
                "infiltration",
                "inf1",
                "T1-movement",
                "Bruno",
                tuple(rules.scripted_orders(state, "Bruno", 1).splitlines()),
            ),
            _save(site, root, "inf-movement"),
        )
    )
    bound_for = {guard.plan for guard in state.guards.values()} | {
        guard.room for guard in state.guards.values()
    }
    history = next(
        room
        for room, slot in sorted(state.layout.items())
        if slot.kind == "HISTORY" and room not in bound_for
    )
    _advance_with_orders(site, "inf1", {"Bruno": f"MOVE {history}"})
    _expect_phase(site, "inf1", "T1-decision")
    state = rules.from_json(site.record("inf1")["state"])
    saved.append(
        (
            Scenario(
                "inf-decision",
                "infiltration",
                "inf1",
                "T1-decision",
                "Bruno",
                tuple(rules.scripted_orders(state, "Bruno", 2).splitlines()),
            ),
            _save(site, root, "inf-decision"),
        )
    )
    return saved
