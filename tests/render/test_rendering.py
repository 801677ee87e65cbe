"""Mail templates (docs/design.md: Outbox — "Mail text comes from Jinja templates in `templates/`
… StrictUndefined"): compiled once, and re-read after `refresh` when the host edits them."""

from __future__ import annotations

import os
import traceback

import pytest
from jinja2 import Environment, StrictUndefined, UndefinedError

from pbp.render.renderer import Renderer, tidy
from pbp.render.view_environment import ViewEnvironment
from pbp.render.verdicts import Refused


def write(path, text, stamp):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (stamp, stamp))  # a distinct modification time, however fast the test runs


def test_an_edited_template_is_used_after_a_refresh(tmp_path):
    """`pbp run` keeps one renderer (no stat per mail rendered) and refreshes it each cycle."""
    template = tmp_path / "mail" / "notice.j2"
    write(template, "Subject: Old\n\nHello {{ player }}.\n", 1_000_000)
    renderer = Renderer(tmp_path)
    assert renderer.render("notice", "werewolf", player="Alice").subject == "Old"
    write(template, "Subject: New\n\nHi {{ player }}.\n", 2_000_000)
    assert renderer.render("notice", "werewolf", player="Alice").subject == "Old"
    renderer.refresh()
    assert renderer.render("notice", "werewolf", player="Alice").body == "Hi Alice.\n"
    own = tmp_path / "werewolf" / "mail" / "notice.j2"  # a ruleset's own wording, added later
    write(own, "Subject: Wolves\n\nAwoo {{ player }}.\n", 3_000_000)
    renderer.refresh()
    assert renderer.render("notice", "werewolf", player="Alice").subject == "Wolves"


def test_a_template_asking_for_a_fact_it_was_not_given_fails(tmp_path):
    """StrictUndefined: a template never prints an empty string for a missing fact."""
    write(tmp_path / "mail" / "notice.j2", "Subject: x\n\n{{ state.roles }}\n", 1_000_000)
    with pytest.raises(UndefinedError):
        Renderer(tmp_path).render("notice", "werewolf", player="Alice")


@pytest.mark.parametrize(
    "source",
    [
        "{{ form.phase }}|{{ votes.items() | list }}|{{ votes.get('keys') }}",
        "{% for voter, choice in votes.items() %}{{ voter }}>{{ choice }};{% endfor %}",
        "{{ votes.keys | string | truncate(20, true, '') }}",  # a dict's own method, as Jinja gives it
    ],
)
def test_a_dict_looked_up_key_first_reads_as_jinja_reads_it(source):
    """The renderers' environment looks a dict's key up before its attributes, for speed;
    what a template reads is what plain Jinja reads, even for players named like dict's
    own methods (a name is letters, digits, _ and -)."""
    from jinja2 import Environment, StrictUndefined

    from pbp.render.view_environment import ViewEnvironment

    context = {
        "form": {"phase": "D1-vote"},
        "votes": {"items": "keys", "keys": "update", "Alice": "Bruno"},
    }
    plain = Environment(undefined=StrictUndefined).from_string(source).render(**context)
    assert ViewEnvironment(undefined=StrictUndefined).from_string(source).render(**context) == plain


def test_a_missing_key_is_still_an_error_in_a_dict_looked_up_key_first():
    with pytest.raises(UndefinedError, match="'dict object' has no attribute 'deadline'"):
        ViewEnvironment(undefined=StrictUndefined).from_string("{{ form.deadline }}").render(
            form={"phase": "N1"}
        )


def test_a_template_sees_the_environments_globals_and_its_own_as_with_jinja():
    source = "{{ shared }} {{ own }} {% set shared = 'changed' %}{{ shared }}"
    rendered = []
    for environment in (
        Environment(undefined=StrictUndefined),
        ViewEnvironment(undefined=StrictUndefined),
    ):
        environment.globals["shared"] = "everyone's"
        template = environment.from_string(source, globals={"own": "mine"})
        rendered.append((template.render(), template.render(), environment.globals["shared"]))
    assert rendered[0] == rendered[1] == ("everyone's mine changed",) * 2 + ("everyone's",)


FORM = {
    "channels": ["wolves"],
    "game": "g1",
    "phase": "N1",
    "token": "abc",
    "deadline": "Mon 1 Dec, 18:00 UTC",
    "orders": [
        {
            "keyword": "KILL",
            "syntax": "KILL <player>",
            "line": "KILL <player>",
            "choices": ["Bruno", "Chloe"],
            "note": "the pack",
        }
    ],
}


def test_an_order_form_reads_as_its_macro_made_once_per_form():
    """`order_form(form, game)` in a template gives exactly what mail/_common.j2's macro
    gives, for a form, no form, or a form with nothing to do; a second form, even equal,
    has its own text made, and a form's text is made again after a refresh."""
    renderer = Renderer()
    macro = renderer.env.get_template("mail/_common.j2").module.order_form
    game = {"id": "g1", "ruleset": "werewolf"}
    idle = {**FORM, "orders": []}
    for form in (FORM, None, idle):
        assert renderer.order_form(form, game) == str(macro(form, game))
    made = []
    real = renderer.env.get_template

    def counting(name, *args, **kwargs):
        made.append(name)
        return real(name, *args, **kwargs)

    renderer.env.get_template = counting
    text = renderer.order_form(FORM, game)
    assert renderer.order_form(FORM, game) is text and made == []
    assert renderer.order_form(dict(FORM), game) == text and made == ["mail/_common.j2"]
    assert "TOKEN: xyz" in renderer.order_form({**FORM, "token": "xyz"}, game) and len(made) == 2
    renderer.refresh()
    assert renderer.order_form(FORM, game) == text and len(made) == 3
    assert "BEGIN ORDERS g1 N1\nTOKEN: abc" in text and "BEGIN MESSAGE g1 wolves" in text


def test_a_template_compiled_ahead_is_the_one_rendered_and_follows_a_rulesets_own(tmp_path):
    """`compile(kind, ruleset)` (run while a poll's mail is still being read) compiles the
    template `render` will use for that ruleset, and mail/_common.j2, so the first mail
    rendered compiles nothing."""
    write(
        tmp_path / "mail" / "_common.j2",
        "{% macro order_form(form, game) %}FORM{% endmacro %}",
        1_000_000,
    )
    write(
        tmp_path / "mail" / "notice.j2",
        "Subject: Shared\n\n{{ order_form(none) }} {{ player }}\n",
        1_000_000,
    )
    write(
        tmp_path / "werewolf" / "mail" / "notice.j2",
        "Subject: Wolves\n\nAwoo {{ player }}.\n",
        1_000_000,
    )
    renderer = Renderer(tmp_path)
    renderer.compile("notice", "infiltration")
    renderer.compile("notice", "werewolf")
    compiled = dict(renderer.env.cache)
    assert {template.name for template in compiled.values()} == {
        "mail/notice.j2",
        "werewolf/mail/notice.j2",
        "mail/_common.j2",
    }
    assert renderer.render("notice", "infiltration", player="Alice").body == "FORM Alice\n"
    assert renderer.render("notice", "werewolf", player="Alice").subject == "Wolves"
    assert dict(renderer.env.cache) == compiled


def test_a_mail_reads_as_jinjas_own_render_of_its_template_would_make_it():
    """`render` builds a template's names once per kind and ruleset and renders without
    Jinja's copies of them; the text is Template.render's, the second time as the first."""
    renderer = Renderer()
    context = {
        "game": {"id": "g1", "ruleset": "werewolf"},
        "player": "Alice",
        "phase": "N1",
        "headline": "orders_received",
        "notes": [
            Refused("problems", also=False, problems=(text,))
            for text in ("Accepted:\n  KILL Bruno  ", "", "Done.")
        ],
        "form": FORM,
    }
    template = renderer.env.get_template("mail/receipt.j2")
    jinja = template.render(**renderer.ruleset_templates("werewolf"), greeting="Alice", **context)
    head, _, body = jinja.partition("\n\n")
    for _ in range(2):
        mail = renderer.render("receipt", "werewolf", **context)
        assert (mail.subject, mail.body) == (head.removeprefix("Subject: "), tidy(body))


def test_a_mails_own_name_wins_over_a_global_of_the_same_name(tmp_path):
    write(
        tmp_path / "mail" / "notice.j2",
        "Subject: {{ phase_words }}\n\n{{ events_template }}\n",
        1_000_000,
    )
    mail = Renderer(tmp_path).render(
        "notice", "werewolf", phase_words="mine", events_template="also mine"
    )
    assert (mail.subject, mail.body) == ("mine", "also mine\n")


def test_an_error_in_a_template_is_raised_with_the_templates_own_line_in_its_traceback(tmp_path):
    """What goes wrong inside a host's edited template points at the line that did it."""
    write(
        tmp_path / "mail" / "notice.j2",
        "Subject: x\n\nHello {{ player }}.\n{{ 1 // 0 }}\n",
        1_000_000,
    )
    with pytest.raises(ZeroDivisionError) as failure:
        Renderer(tmp_path).render("notice", "werewolf", player="Alice")
    frames = [(frame.filename, frame.lineno) for frame in traceback.extract_tb(failure.tb)]
    assert (str(tmp_path / "mail" / "notice.j2"), 4) in frames
