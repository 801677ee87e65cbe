"""Every word pbp writes can be translated, and every language translates it (docs/design.md:
Catalog checks): no template holds prose outside a translatable string (tests.render.prose
says what prose is), and `scripts/catalogs check` finds every message the templates hold
translated, with its placeholders and plural forms, in every language's catalog."""

from __future__ import annotations

from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path

import pytest
from babel.messages.catalog import Message
from babel.messages.pofile import read_po, write_po

from pbp.release import templates_folder
from pbp.render.languages import DOMAINS, domain_folders
from pbp.render.renderer import Renderer
from tests.render.prose import prose_in

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "catalogs"


def load_script():
    loader = SourceFileLoader("catalogs_script", str(SCRIPT))
    module = module_from_spec(spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


catalogs = load_script()


def templates_of_every_domain(root: Path) -> list[Path]:
    return sorted(
        path
        for domain in DOMAINS
        for folder in domain_folders(domain)
        for path in (root / folder).rglob("*")
        if path.suffix.lstrip(".") in catalogs.TEMPLATE_ENDINGS
    )


TEMPLATES = templates_of_every_domain(templates_folder())


@pytest.mark.parametrize(
    "template", TEMPLATES, ids=[str(p.relative_to(templates_folder())) for p in TEMPLATES]
)
def test_no_template_holds_prose_outside_a_translatable_string(template):
    found = prose_in(template.read_text(encoding="utf-8"))
    assert not found, f"{template.name} holds prose to mark for translation:\n" + "\n".join(
        map(str, found)
    )


BARE = """{% import "mail/_common.j2" as common -%}
Subject: [{{ game.id }}] Goodbye from game {{ game.id }}

{{ s.table("Votes so far", votes) }}
<p title="Open the game">{{ x }}</p>
"""

MARKED = """{% import "mail/_common.j2" as common -%}
{#- A comment says anything: it is never mailed. -#}
Subject: [{{ game.id }}] {{ _("Goodbye from game %(game)s", game=game.id) }}

{% filter paragraph %}{% trans trimmed name=player %}Hello {{ name }}, the host
has handed your character to a substitute.{% endtrans %}{% endfilter %}
{{ ngettext("%(num)d vote", "%(num)d votes", count) }} {{ pgettext("tally", "no vote") }}
[b]{{ _("Alive") }}:[/b] [url={{ link }}]{{ link }}[/url] **{{ _("Dead") }}** | --- |
<p class="notice wide" title="{{ _('Open the game') }}">&nbsp;{{ s.table(_("Votes so far"), votes) }}</p>
{% if phase.endswith("-nominate") and team == "wolves" and "not wolf" != verdict %}{{ "help/" ~ ruleset ~ ".txt" }}{% endif %}
BEGIN {{ game.id }} {{ phase }}
VOTE <name>
TOKEN: {{ token }}
END
→ https://games.example/pbp/help.html · host@games.example · mail/help.j2
"""


def test_the_prose_check_finds_bare_prose_in_a_planted_template():
    found = {(p.line, p.text) for p in prose_in(BARE)}
    assert found == {(2, "Goodbye from game"), (4, "Votes so far"), (5, "Open the game")}


def test_the_prose_check_passes_a_planted_template_marked_throughout():
    assert prose_in(MARKED) == []


# ------------------------------------------------------------- scripts/catalogs check
PLANTED = {
    "mail/goodbye.j2": 'Subject: {{ _("Goodbye from game %(game)s", game=g) }}\n'
    "{% trans trimmed name=p %}Hello {{ name }},\nthank you.{% endtrans %}\n"
    '{{ ngettext("%(num)d vote", "%(num)d votes", n) }}\n'
    "{% trans %}Not trimmed:\n  kept as written.{% endtrans %}\n"
}
GERMAN = {
    "Goodbye from game %(game)s": "Abschied aus Spiel %(game)s",
    "Hello %(name)s, thank you.": "Hallo %(name)s, danke.",
    ("%(num)d vote", "%(num)d votes"): ("%(num)d Stimme", "%(num)d Stimmen"),
    "Not trimmed:\n  kept as written.": "Nicht gekürzt:\n  wie geschrieben.",
}


@pytest.fixture
def planted(tmp_path):
    """A templates folder with one mail template, its catalogs extracted and a German
    catalog translated in full."""
    for name, text in PLANTED.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert catalogs.extract(tmp_path) == 0
    assert catalogs.init(tmp_path, "de") == 0
    edit_german(
        tmp_path, lambda catalog: [setattr(m, "string", GERMAN[m.id]) for m in catalog if m.id]
    )
    return tmp_path


def edit_german(root: Path, change) -> None:
    path = root / "locale" / "de" / "LC_MESSAGES" / "mail.po"
    with path.open("rb") as source:
        catalog = read_po(source, locale="de")
    change(catalog)
    with path.open("wb") as out:
        write_po(out, catalog)


def test_a_complete_planted_catalog_passes(planted):
    assert catalogs.check_problems(planted) == []


def test_every_message_extracted_is_the_one_the_renderer_looks_up(planted):
    text = (
        Renderer(planted, "de").env.get_template("mail/goodbye.j2").render(g="ww1", p="Alice", n=2)
    )
    assert text == (
        "Subject: Abschied aus Spiel ww1\nHallo Alice, danke.\n2 Stimmen\n"
        "Nicht gekürzt:\n  wie geschrieben.\n"
    )


def test_a_planted_catalog_missing_a_message_fails(planted):
    edit_german(planted, lambda catalog: catalog.delete("Hello %(name)s, thank you."))
    assert catalogs.check_problems(planted) == [
        "de/mail.po: 'Hello %(name)s, thank you.' (mail/goodbye.j2:2) is missing: run `scripts/catalogs update`."
    ]


def test_a_message_extract_finds_that_no_catalog_holds_fails(planted):
    (planted / "mail" / "goodbye.j2").write_text(
        PLANTED["mail/goodbye.j2"] + '{{ _("See you") }}\n'
    )
    problems = catalogs.check_problems(planted)
    assert problems[0].startswith("mail.pot is not what the templates hold")
    assert (
        "de/mail.po: 'See you' (mail/goodbye.j2:7) is missing: run `scripts/catalogs update`."
        in problems
    )
    assert catalogs.extract(planted) == 0 and catalogs.update(planted) == 0
    assert catalogs.check_problems(planted) == [
        "de/mail.po: 'See you' (mail/goodbye.j2:7) is not translated."
    ]


def test_fuzzy_changed_placeholders_and_missing_plural_forms_each_fail(planted):
    def spoil(catalog):
        catalog["Goodbye from game %(game)s"].flags.add("fuzzy")
        catalog["Hello %(name)s, thank you."].string = "Hallo %(player)s, danke."
        catalog["%(num)d vote"].string = ("%(num)d Stimme", "")

    edit_german(planted, spoil)
    problems = catalogs.check_problems(planted)
    assert [problem.split(") ", 1)[1] for problem in problems] == [
        "is marked fuzzy (a guess made by `update`): check the translation, then untick fuzzy.",
        "has placeholders ['player']; the English has ['name'].",
        "needs all 2 plural forms, has 1.",
    ]


def test_a_form_for_one_may_say_one_instead_of_the_count(planted):
    edit_german(
        planted,
        lambda catalog: setattr(
            catalog["%(num)d vote"], "string", ("eine Stimme", "%(num)d Stimmen")
        ),
    )
    assert catalogs.check_problems(planted) == []


def test_every_catalog_shipped_translates_every_message():
    assert catalogs.check_problems(templates_folder()) == []


def test_a_new_language_starts_with_every_message_to_translate(planted, capsys):
    assert catalogs.init(planted, "de") == 1
    assert catalogs.init(planted, "xx") == 1
    assert capsys.readouterr().err.splitlines() == [
        "de already exists; run `scripts/catalogs update` to bring it up to date.",
        "'xx' is not a language code Babel knows; use a code such as fr or pt_BR.",
    ]
    assert catalogs.init(planted, "es") == 0
    assert len(catalogs.check_problems(planted)) == len(GERMAN)


def test_a_plural_form_may_leave_out_the_count_the_english_leaves_out_of_one_form():
    english = ("a block was skipped.", "%(older)s blocks were skipped.")
    kept = Message(
        english, ("ein Block wurde übersprungen.", "%(older)s Blöcke wurden übersprungen.")
    )
    lost = Message(
        ("%(name)s: a block was skipped.", "%(name)s: %(older)s blocks were skipped."),
        ("ein Block wurde übersprungen.", "%(older)s Blöcke wurden übersprungen."),
    )
    assert catalogs.message_problems(kept, 2) == []
    assert catalogs.message_problems(lost, 2) == [
        "has placeholders [] in a plural form; the English has ['name', 'older']"
    ]
