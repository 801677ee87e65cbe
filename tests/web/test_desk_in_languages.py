"""The desk's pages in German and Spanish (docs/design.md: Languages): with a language's
translations installed, the login page and the games page are in that language. The
host's language setting wires this (pbp.web.app); here the translations are installed
directly."""

from __future__ import annotations

import pytest

from pbp.render.languages import translations
from pbp.web.app import make_app
from pbp.web.credentials import new_login_link

WORDS = {
    "de": ("Am Schreibtisch der Spielleitung anmelden", "Alle Spiele", "Der Moderator"),
    "es": (
        "Inicia sesión en el escritorio del moderador",
        "Todas las partidas",
        "El moderador automático",
    ),
}


@pytest.mark.parametrize("language", ["de", "es"])
def test_the_desk_pages_are_in_the_hosts_language(site, language):
    app = make_app(site.settings())
    app.jinja_env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    client = app.test_client()
    login, every_game, moderator = WORDS[language]
    assert login in client.get("/login").get_data(as_text=True)
    client.get(f"/login/{new_login_link(site.data)}")
    page = client.get("/").get_data(as_text=True)
    assert every_game in page and moderator in page and "Every game" not in page
