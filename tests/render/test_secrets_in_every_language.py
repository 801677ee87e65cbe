"""A translation tells nothing its reader may not know (docs/design.md: Catalog checks;
Languages: "no grammatical gender or agreement that depends on a hidden role"): twin
Werewolf games in which two other players hold each other's roles give each plain
villager byte-identical mail, in every language pbp writes; and a planted translation that
agrees with a hidden role is caught by the same comparison."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbp.composition import ComposedModerator
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.resolution import resolve_phase
from pbp.game.stored import load
from pbp.host.orders import submit
from pbp.render.languages import languages
from pbp.render.renderer import Renderer
from pbp.settings import Settings
from tests.fixtures.clocks import Clock
from tests.fixtures.languages import write_everything_in

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROLES = ("werewolf", "werewolf", "seer", "villager", "villager", "villager", "witch", "bodyguard")
# Roles told nothing about any other player at the start: what they read may not change
# when two other players trade roles.
UNKNOWING = ("villager",)


def mail_by_reader(
    language: str, roles: tuple[str, ...]
) -> tuple[dict[str, str], dict[str, list[str]]]:
    """Each player's role, and the mail each player reads (subjects and bodies, tokens
    blanked) through the first night and its resolution, pbp writing in `language`."""
    with tempfile.TemporaryDirectory() as folder:
        moderator = ComposedModerator(
            Settings(data=Path(folder), from_address="pbp@games.example"), clock=Clock()
        )
        try:
            write_everything_in(moderator, language)
            roster = [RosterPlayer(name, f"{name.lower()}@players.example") for name in NAMES]
            create_game(
                moderator,
                "werewolf",
                roster,
                seed="twin",
                options={"roles": ",".join(roles)},
                game_id="ww1",
            )
            game = load(moderator, "ww1")
            for name in game.phase.actors:
                orders = game.rules.scripted_orders(game.state, name, "twin")
                if orders.strip():
                    submit(moderator, "ww1", name, orders)
            resolve_phase(moderator, "ww1")
            game = load(moderator, "ww1")
            held = {name: game.rules.status(game.state, name).label for name in NAMES}
            read: dict[str, list[str]] = {name: [] for name in NAMES}
            for row in moderator.folder.game("ww1").outbox.all():
                body = row["subject"] + "\n" + row["body"]
                for name, token in game.record.tokens.items():
                    body = body.replace(token, f"<token of {name}>")
                read.setdefault(row.get("recipient", ""), []).append(body)
            return held, read
        finally:
            moderator.close()


def first_difference(one: list[str], two: list[str]) -> str:
    for a, b in zip(one, two):
        for line_a, line_b in zip(a.splitlines(), b.splitlines()):
            if line_a != line_b:
                return f"{line_a!r} / {line_b!r}"
    return f"{len(one)} mails / {len(two)} mails"


def assert_twins_read_alike(
    language: str, readers: list[str], one: dict[str, list[str]], two: dict[str, list[str]]
) -> None:
    for reader in readers:
        assert one[reader] == two[reader], (
            f"in {language}, {reader} tells the twins apart: {first_difference(one[reader], two[reader])}"
        )


@pytest.mark.parametrize("language", languages())
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(roles=st.permutations(ROLES), pair=st.permutations(range(len(ROLES))))
def test_twin_games_read_alike_to_an_unknowing_player_in_every_language(language, roles, pair):
    first, second = pair[:2]
    twin = list(roles)
    twin[first], twin[second] = twin[second], twin[first]
    held_one, read_one = mail_by_reader(language, tuple(roles))
    held_two, read_two = mail_by_reader(language, tuple(twin))
    readers = [
        name for name in NAMES if held_one[name] == held_two[name] and held_one[name] in UNKNOWING
    ]
    assert_twins_read_alike(language, readers, read_one, read_two)


# ------------------------------------------------- a planted translation tells a secret
# A template words a death the same way whoever died; a context names the dead player's
# role, so that a language may choose its words. English cannot tell the twins apart; the
# planted German translation agrees with the role ("Die Seherin" against "Der
# Dorfbewohner"), and so tells the reader what only the role's owner knows.
PLANTED_TEMPLATE = '{{ pgettext(role, "%(name)s was found dead.", name=name) }}\n'
GENDERED = {
    "seer": "Die Seherin %(name)s wurde tot aufgefunden.",
    "villager": "Der Dorfbewohner %(name)s wurde tot aufgefunden.",
}
NEUTRAL = {"seer": "%(name)s wurde tot aufgefunden.", "villager": "%(name)s wurde tot aufgefunden."}


def planted_root(root: Path, translations: dict[str, str]) -> Path:
    (root / "mail").mkdir(parents=True)
    (root / "mail" / "death.j2").write_text(PLANTED_TEMPLATE, encoding="utf-8")
    catalog = Catalog(locale="de", domain="mail")
    for role, text in translations.items():
        catalog.add("%(name)s was found dead.", text, context=role)
    path = root / "locale" / "de" / "LC_MESSAGES" / "mail.po"
    path.parent.mkdir(parents=True)
    with path.open("wb") as out:
        write_po(out, catalog)
    return root


def read_by_bruno(root: Path, language: str, dead_role: str) -> dict[str, list[str]]:
    template = Renderer(root, language).env.get_template("mail/death.j2")
    return {"Bruno": [template.render(role=dead_role, name="Alice")]}


@pytest.mark.parametrize(
    "translations,caught", [(GENDERED, True), (NEUTRAL, False)], ids=["gendered", "neutral"]
)
def test_the_twin_comparison_catches_a_translation_agreeing_with_a_hidden_role(
    tmp_path, translations, caught
):
    root = planted_root(tmp_path, translations)
    assert languages(root) == ("en", "de")
    for language in languages(root):
        one, two = (read_by_bruno(root, language, role) for role in ("seer", "villager"))
        if language == "de" and caught:
            with pytest.raises(
                AssertionError, match="in de, Bruno tells the twins apart: 'Die Seherin"
            ):
                assert_twins_read_alike(language, ["Bruno"], one, two)
        else:
            assert_twins_read_alike(language, ["Bruno"], one, two)
