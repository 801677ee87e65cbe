"""Property: whatever a mail client does to a validly filled form, pbp records the orders
the player wrote (docs/mail-clients.md).

A form is a player's real order form (the last mail pbp sent them, in a game of either
ruleset, at any of the corpus's phases) filled with a valid order set from the engine
(`rules.scripted_orders`), by any of the ways players fill forms. Then the client's
transformations, alone and combined: hard wrapping at 76 columns, format=flowed with and
without DelSp, the quote at depth 1 to 3 with `>` or `> `, the filled block above the
quote, below it or inside it, CRLF line ends in the text and in the message, transfer
encodings and charsets, and an HTML-only rendering (the standard library's `html.escape`
into `<div>`, `<br>` and `<blockquote>`). The mail goes through pbp's own parser and desk,
in this process, on a fresh copy of the game; the orders it records must be the engine's
reading of the orders written.

CI runs PBP_CLIENT_EXAMPLES examples (default 60); more: `PBP_CLIENT_EXAMPLES=2000`.
"""

from __future__ import annotations

import email
import hashlib
import itertools
import os
import shutil
from dataclasses import dataclass, replace
from email import policy

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

import engine
from pbp.composition import ComposedModerator
from pbp.storage.game_storage import game_tables
from pbp.desk import Desk
from pbp.game.stored import load
from pbp.mail.ingest.inbound import parse_inbound
from pbp.ports import RawMail
from pbp.render.languages import languages
from pbp.render.renderer import Renderer
from pbp.settings import Settings
from tests.clients.builder import Fill, Player, build_reply
from tests.clients.clients import CLIENTS, Client
from tests.clients.grounds import MODERATOR, Ground, Scenario, address_of, form_mail, mails_in

EXAMPLES = int(os.environ.get("PBP_CLIENT_EXAMPLES", "60"))
# Seeded (derandomize) and not shrunk: each example is a whole mail through the desk, and a
# failure prints the mail as sent.
settings.register_profile(
    "client-transformations",
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@dataclass(frozen=True)
class Form:
    """One player's real form in one ground, and the orders the engine would give them."""

    ground: Ground
    scenario: Scenario  # the ground's scenario, for this player
    mail: bytes  # the last mail pbp sent the player: the form is at its end
    state: object

    def __repr__(self) -> str:
        return f"Form({self.scenario.key}, {self.scenario.player})"


@pytest.fixture(scope="session")
def forms(grounds_in) -> list[Form]:
    """Every player with orders to give in every ground's phase, in every language pbp
    writes."""
    found = []
    for ground in (ground for language in languages() for ground in grounds_in(language).values()):
        scenario = ground.scenario
        rules = engine.ruleset(scenario.ruleset)
        record = next(
            iter(game_tables(ground.folder / "games" / f"{scenario.game}.json")["game"].values())
        )
        state = rules.from_json(record["state"])
        phase = rules.phase(state)
        assert phase is not None, f"{scenario.key}: the game is over"
        for player in sorted(name for name, grammar in phase.grammar.items() if grammar):
            mail = form_mail(
                mails_in(ground.folder / "mail" / address_of(player)), scenario.game, scenario.phase
            )
            found.append(
                Form(
                    ground,
                    replace(scenario, player=player, address=address_of(player)),
                    mail,
                    state,
                )
            )
    return found


@pytest.fixture(scope="session")
def workspace(tmp_path_factory):
    return tmp_path_factory.mktemp("client-transformations"), itertools.count()


# A client made of the drawn transformations, on a neutral plain-text profile.
BASE = replace(CLIENTS["thunderbird"], key="drawn", headers=(), greeting=("Orders:",), signature=())
SHAPES = st.fixed_dictionaries(
    {
        "fill": st.builds(
            Fill,
            st.sampled_from(["uncomment", "literal", "strip", "typed"]),
            st.sampled_from(["top", "bottom", "quote"]),
        ),
        "depth": st.integers(1, 3),
        "quote_style": st.sampled_from(["> ", ">"]),
        "wrap": st.sampled_from(["none", "hard", "flowed", "flowed-delsp"]),
        "rendering": st.sampled_from(["plain", "html"]),
        "encoding": st.sampled_from(["8bit", "quoted-printable", "base64"]),
        "charset": st.sampled_from(["utf-8", "windows-1252"]),
        "text_line_end": st.sampled_from(["\n", "\r\n"]),
        "line_end": st.sampled_from(["\r\n", "\n"]),
        "typing_leaves_quote": st.booleans(),
        "blank_around_typed": st.booleans(),
    }
)


def drawn_client(shape: dict) -> Client:
    wrap = shape["wrap"]
    return replace(
        BASE,
        layout="html" if shape["rendering"] == "html" else "plain",
        html="gmail",
        wrap="flowed" if wrap.startswith("flowed") else wrap,
        delsp=wrap == "flowed-delsp",
        width=76,
        quote_style=shape["quote_style"],
        plain_charset=shape["charset"],
        plain_encoding=shape["encoding"],
        html_charset=shape["charset"],
        html_encoding=shape["encoding"],
        typing_leaves_quote=shape["typing_leaves_quote"],
        blank_around_typed=shape["blank_around_typed"],
    )


@pytest.fixture(scope="session")
def renderer() -> Renderer:
    """One renderer for every example's moderator: its compiled templates are the same."""
    return Renderer()


def recorded(form: Form, data: bytes, workspace, renderer: Renderer) -> dict | None:
    """The order row pbp's desk records from this one mail, on a fresh copy of the game
    (its games and registry; the Maildir folders play no part in judging a mail)."""
    root, count = workspace
    folder = root / f"example-{next(count)}"
    top = str(form.ground.folder)
    shutil.copytree(
        form.ground.folder, folder, ignore=lambda where, names: ["mail"] if where == top else []
    )
    raw = RawMail(f"k{folder.name}", data, hashlib.sha256(data).hexdigest())
    with ComposedModerator(Settings(data=folder, from_address=MODERATOR)) as moderator:
        moderator.renderer = renderer
        Desk(moderator).receive(parse_inbound(raw, (MODERATOR,), 1_000_000))
        row = load(moderator, form.scenario.game).latest_order(
            form.scenario.phase, form.scenario.player
        )
    shutil.rmtree(folder)
    return row


@settings(settings.get_profile("client-transformations"))
@given(choice=st.data(), seed=st.integers(0, 10**6), shape=SHAPES)
def test_every_client_transformation_keeps_the_orders(
    forms, workspace, renderer, choice, seed, shape
):
    """Hard wrap at 76, format=flowed (with and without DelSp), quotes 1 to 3 deep with `>`
    or `> `, the block above, below or inside the quote, CRLF, any transfer encoding and an
    HTML-only rendering, alone or combined: the orders recorded are those written."""
    form = choice.draw(st.sampled_from(forms), label="form")
    scenario = form.scenario
    rules = engine.ruleset(scenario.ruleset)
    orders = rules.scripted_orders(form.state, scenario.player, seed).splitlines()
    assume(orders)  # a player whose scripted choice is to give no order fills nothing in
    if shape["fill"].placement == "quote" and shape["fill"].edit == "strip":
        shape["fill"] = Fill("typed", "quote")
    data = build_reply(
        form.mail,
        drawn_client(shape),
        shape["fill"],
        orders,
        player=Player(scenario.player, scenario.address),
        game=scenario.game,
        phase=scenario.phase,
        token=f"{seed}",
        depth=shape["depth"],
        text_line_end=shape["text_line_end"],
        line_end=shape["line_end"],
    )
    expected = [str(order) for order in rules.parse_orders(form.state, scenario.player, orders)]
    row = recorded(form, data, workspace, renderer)
    sent = email.message_from_bytes(data, policy=policy.default)
    # Each order is written on its template line, so their order follows the form's.
    assert row is not None and sorted(row.text.splitlines()) == sorted(expected), (
        f"{scenario.key} {scenario.player} {shape}: wrote {orders}, recorded {row and row.text!r}\n"
        f"{sent.get_body().get_content()}"
    )
