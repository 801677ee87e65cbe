"""The answer of every host action on the desk, done and refused, with `[pbp] host_language`
German or Spanish, holds no English (docs/design.md: Languages — the desk's words): what
the host actions say (pbp.host.actions), their refusals, a refused NPC order's problems,
the options' help, the roles' summaries and the log of past actions, each read with the
stop-list of the translated demos (tests/render/test_no_english_left.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbp.web.app import make_app
from pbp.web.credentials import new_login_link
from tests.render.test_no_english_left import english_left
from tests.web.conftest import PLAYERS, csrf_of, make_site
from tests.web.test_actions import infiltration_with_an_npc, open_with_signups

# What the page shows as written: names, the players' and drafts' words, an option's name
# and values (`spectators=dead`, `dead (the dead players)`: what the host types), the map's
# tooltips, the sign-up lines `pbp open-game` prints (with addresses), the indented lines
# of an answer (what goes out in the game's language: the public announcement of a modkill,
# the order lines taken), and why a mail failed as the outbox keeps it.
AS_WRITTEN = re.compile(
    r"<bdi>.*?</bdi>"
    r"|\w+=\S+|\bdead(?= \()"
    r'|<p class="note done" role="status">  .*?</p>'
    r"|(?<=fehlgeschlagen: )[^<]*|(?<=falló: )[^<]*"
    r'|<div class="forum-preview">.*?</div>'
    r'|<textarea id="draft-text".*?</textarea>'
    r'|<label for="option-.*?</label>'
    r'|<pre class="mail">(?:(?!</pre>).)*?&lt;\S+@.*?</pre>'
    r"|<title>.*?</title>(?=</g>)",
    re.DOTALL,
)
# A draft's edit that names every character's role and faction (the leak check objects).
LEAKING = "\n".join(f"{name}: seer, witch, wolves, village" for name in PLAYERS)
# Each action: the page its form is on, where it posts, and the fields (a refused one last).
ACTIONS = (
    ("/games/w1/actions", "/games/w1/actions/extend", {"when": "1d", "reason": "Feiertag"}),
    ("/games/w1/actions", "/games/w1/actions/extend", {"when": "soon", "reason": ""}),
    ("/games/w1/actions", "/games/w1/actions/pause", {"reason": "Urlaub"}),
    ("/games/w1/actions", "/games/w1/actions/pause", {"reason": "Urlaub"}),
    ("/games/w1/actions", "/games/w1/actions/resume", {"reason": "zurück"}),
    ("/games/w1/actions", "/games/w1/actions/resume", {"reason": "zurück"}),
    (
        "/games/w1/actions",
        "/games/w1/actions/substitute",
        {"old": "Alice", "source": "new", "name": "Zoe", "email": "zoe@example.org"},
    ),
    ("/games/w1/actions", "/games/w1/actions/substitute", {"old": "Alice", "source": "new"}),
    ("/games/w1/actions", "/games/w1/actions/modkill", {"player": "Bruno", "reason": "Spam"}),
    ("/games/w1/actions", "/games/w1/actions/modkill", {"player": "Bruno", "reason": "Spam"}),
    ("/games/w1/actions", "/games/w1/actions/modkill", {"player": "Chloe", "reason": ""}),
    ("/games/w1/actions", "/games/w1/actions/options", {"reveal_roles": "off"}),
    ("/games/w1/actions", "/games/w1/actions/options", {"reveal_roles": "maybe"}),
    ("/games/inf1/orders/Raiden", "/games/inf1/orders/Raiden", {"orders": "MOVE Z-9\nFOO"}),
    ("/games/inf1/orders/Raiden", "/games/inf1/orders/Raiden", {"orders": "MOVE A-1"}),
    ("/games/inf1/actions", "/games/inf1/actions/modkill", {"player": "Ann", "reason": "Spam"}),
    ("/open/ww3/start", "/open/ww3/start", {}),
    ("/open/ww3/start", "/open/ww3/start", {}),
    ("/games/w1/drafts/N0", "/games/w1/drafts/N0/edit", {"text": ""}),
    ("/games/w1/drafts/N0", "/games/w1/drafts/N0/edit", {"text": LEAKING}),
    ("/games/w1/drafts/N0", "/games/w1/drafts/N0/approve", {}),
    ("/games/w1/drafts", "/games/w1/drafts/approve-all", {}),
)
PAGES = ("/", "/games/w1", "/games/w1/actions", "/games/inf1", "/games/inf1/actions", "/drafts")


@pytest.fixture(scope="module", params=["de", "es"])
def answers(request, tmp_path_factory) -> dict[str, str]:
    """Each action's answer (the page it leads to), then each page after them all."""
    root: Path = tmp_path_factory.mktemp(f"acts-{request.param}") / "site"
    site = make_site(root, host_language=request.param)
    assert site.pbp("advance", "w1") == 0  # the night's post is a draft to check
    infiltration_with_an_npc(site, root)
    open_with_signups(site, "ww3", 10)
    app = make_app(site.settings())
    app.config["TESTING"] = True
    desk = app.test_client()
    assert desk.get(f"/login/{new_login_link(site.data)}").status_code == 302
    shown = {}
    for number, (page, action, fields) in enumerate(ACTIONS):
        token = csrf_of(desk.get(page).data)
        answer = desk.post(action, data={"csrf_token": token, **fields})
        if answer.status_code == 302:
            answer = desk.get(answer.headers["Location"])
        shown[f"{number} {action} {fields}"[:80]] = answer.get_data(as_text=True)
    for page in PAGES:
        shown[page] = desk.get(page).get_data(as_text=True)
    assert any('class="leaks"' in page for page in shown.values())  # findings are read too
    return shown


def desk_words(page: str) -> str:
    return re.sub(r"<[^>]+>", " ", AS_WRITTEN.sub(" ", page))


def test_no_answer_holds_english(answers):
    left = {what: english_left(desk_words(page)) for what, page in answers.items()}
    assert not any(left.values()), "English on the desk:\n" + "\n".join(
        f"{what}: {found}" for what, words in left.items() for found in words[:20]
    )
