"""Mail text from Jinja templates (docs/design.md: One gate; Reliability rules, Outbox).

Templates live in `templates/`: `mail/<kind>.j2` for the wording shared by both rulesets,
`<ruleset>/mail/<kind>.j2` where a ruleset words it differently, and each ruleset's
`events.j2` (macro `describe(event)`) and `status.j2` (macro `status(view)`). A mail
template's first line is `Subject: …`, then a blank line, then the body.

A report whose view shows a board (Infiltration's facility map) carries its picture twice,
both drawn by the ruleset's card: the text in its body (the template calls `board_text`) and
the SVG as a `map.svg` attachment.

Templates receive only views (`rules.view(state, player)`), events, forms and plain
facts about the game (id, ruleset, phase ids, deadlines); never the state.
"""

from __future__ import annotations

from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Callable, Mapping

from jinja2 import FileSystemLoader, StrictUndefined, Template, TemplateNotFound

import engine
from engine.core import Event, GameSetupError, RulesetCard
from pbp.mail.limits import quoted
from pbp.render import glossary_words, moments, refusals
from pbp.render.forms import choice_lines, comment_lines, form_in_language
from pbp.render.card_texts import card_text, hint_text, slotted
from pbp.render.keyword_names import line_in, order_in
from pbp.render.languages import SOURCE_LANGUAGE, translations
from pbp.render.paragraphs import paragraph
from pbp.render.verdicts import Verdict
from pbp.render.view_environment import ViewEnvironment
from pbp.ports import Attachment, RenderedMail
from pbp.release import templates_folder

# The phase under which mail about a finished game is filed (a game over has no phase id).
FINISHED = "over"
# Order forms whose text a renderer keeps (Renderer.order_form): a form per player of each
# running game, with room to spare.
KEPT_FORMS = 4096


class Renderer:
    def __init__(self, root: Path | None = None, language: str = SOURCE_LANGUAGE):
        """`language`: the language this renderer writes in (pbp.render.languages); a
        moderator keeps one renderer per language its readers read."""
        self.root = root or templates_folder()
        self.language = language
        # auto_reload off: Jinja would otherwise stat every template file (and each one it
        # imports) on every mail rendered; as with `_exists`, an edited template is used
        # after `refresh`. Every template stays compiled (cache_size -1: a plain dict, not
        # a least-recently-used list reordered, under a lock, at each template asked for).
        self.env = ViewEnvironment(
            loader=FileSystemLoader(str(self.root)),
            undefined=StrictUndefined,
            keep_trailing_newline=True,
            autoescape=False,
            auto_reload=False,
            cache_size=-1,
            extensions=["jinja2.ext.i18n"],
        )
        self.env.install_gettext_translations(translations(language, self.root), newstyle=True)  # type: ignore[attr-defined]
        # the board's words in this language (pbp.render.card_texts), in text and SVG
        self.board_word = partial(card_text, translations(language, self.root))
        self.env.globals["board_text"] = partial(board_text, word=self.board_word)
        self.env.globals["phase_words"] = phase_words
        self.env.globals["subject_words"] = subject_words
        glossary_words.install(self.env, language)  # after phase_words, which it words anew
        self.env.globals["order_form"] = self.order_form
        self.env.globals["form_comment"] = comment_lines
        self.env.globals["form_choices"] = choice_lines
        self.env.globals["word"] = self.word
        self.env.filters["quoted"] = quoted  # a sender's own words, cut to a bounded length
        self.env.filters["paragraph"] = paragraph  # a translated paragraph, reflowed to 72 columns
        self.env.filters["pyrepr"] = repr  # quoted as the receipts always quoted a command
        # Times in this renderer's language: `{{ when | moment(zone) }}`, `{{ span | remaining }}`.
        self.env.filters["moment"] = partial(moments.render_moment, language=language)
        self.env.filters["remaining"] = partial(moments.render_remaining, language=language)
        self.env.filters["language_name"] = partial(moments.language_name, reader=language)
        # A card's English sentence (a role's summary, a hint), an order line (`VOTE
        # <player>`) and its slots in this language: `{{ text | card_text }}`,
        # `{{ line | order_line(ruleset) | slotted }}`.
        self.env.filters["card_text"] = partial(hint_text, translations(language, self.root))
        self.env.filters["slotted"] = partial(slotted, translations(language, self.root))
        refusals.install(self.env, translations(language, self.root), language)
        self.env.filters["order_line"] = lambda line, ruleset: line_in(
            str(line), _card(ruleset), language
        )
        self._existing: dict[str, bool] = {}
        self._mail_templates: dict[tuple[str, str], tuple[Template, dict[str, Any]]] = {}
        self._forms: dict[
            int, tuple[Any, Any, str]
        ] = {}  # id(form) -> (form, its ruleset, its text)

    def refresh(self) -> None:
        """Forget every template whose file changed since it was compiled, and which
        names exist, so that a host's edit is used from the next mail on. A long-lived
        renderer (`pbp run`) calls this once per cycle: one look at each file per cycle
        instead of one per mail rendered."""
        cache = self.env.cache
        if cache is not None:
            for key, template in list(cache.items()):
                if not template.is_up_to_date:
                    del cache[key]
        self._existing.clear()
        self._mail_templates.clear()
        self._forms.clear()

    def _exists(self, name: str) -> bool:
        """Whether a template exists, looked up once per name (asked several times for
        every mail rendered; a template added later is found after `refresh`)."""
        if name not in self._existing:
            try:
                assert self.env.loader is not None  # __init__ gives the environment its loader
                self.env.loader.get_source(self.env, name)  # found, without compiling it
                self._existing[name] = True
            except TemplateNotFound:
                self._existing[name] = False
        return self._existing[name]

    def order_form(
        self, form: Mapping[str, Any] | None, game: Mapping[str, Any] | None = None
    ) -> str:
        """The macro `order_form` of mail/_common.j2, which templates call as
        `order_form(form, game)`, made once per form: a stored game makes each player's
        form once and hands that same dict out again (pbp.game.stored.StoredGame), and a
        batch of order mails puts it in a receipt each. Forms are only read, never changed,
        so the text made for one stays right while the form is kept (here, so that its id
        is not given to another)."""
        ruleset = game.get("ruleset") if game else None
        kept = self._forms.get(id(form))
        if kept is not None and kept[0] is form and kept[1] == ruleset:
            return kept[2]
        shown = form_in_language(form, _card(ruleset), self.language) if ruleset else form
        text = str(self._common_macros().order_form(shown, game))
        if len(self._forms) >= KEPT_FORMS:
            self._forms.clear()
        self._forms[id(form)] = (form, ruleset, text)
        return text

    def word(self, verdict: Verdict) -> str:
        """A verdict in words (pbp.render.verdicts): the macro of mail/_verdicts.j2 named by
        its kind, which templates call as `word(verdict)`. Accepted orders are echoed with
        their keywords in the reader's language (pbp.render.keyword_names)."""
        if verdict.kind == "orders_accepted" and self.language != SOURCE_LANGUAGE:
            lines = tuple(
                order_in(str(line), self.language) for line in verdict.facts.get("lines", ())
            )
            verdict = type(verdict)(verdict.kind, **{**verdict.facts, "lines": lines})
        return str(getattr(self._verdict_macros(), verdict.kind)(verdict))

    def ruleset_templates(self, ruleset: str) -> dict[str, Any]:
        events = f"{ruleset}/events.j2"
        status = f"{ruleset}/status.j2"
        return {
            "events_template": events if self._exists(events) else "mail/generic_events.j2",
            "status_template": status if self._exists(status) else "mail/generic_status.j2",
        }

    def _template_name(self, kind: str, ruleset: str) -> str:
        own = f"{ruleset}/mail/{kind}.j2"
        return own if self._exists(own) else f"mail/{kind}.j2"

    def compile(self, kind: str, ruleset: str) -> None:
        """Compile ahead of the first mail the template `render(kind, ruleset)` uses, and
        the macros of mail/_common.j2 and mail/_verdicts.j2, which the mail templates import
        and `order_form` and `word` call (some 10 ms, which the first mail rendered would
        otherwise pay)."""
        self._mail_template(kind, ruleset)
        self._common_macros()
        if self._exists("mail/_verdicts.j2"):
            self._verdict_macros()

    def _common_macros(self) -> Any:
        """mail/_common.j2 as a module (made on first use, then kept with the template)."""
        return self.env.get_template("mail/_common.j2").module

    def _verdict_macros(self) -> Any:
        """mail/_verdicts.j2 as a module (made on first use, then kept with the template)."""
        return self.env.get_template("mail/_verdicts.j2").module

    def _mail_template(self, kind: str, ruleset: str) -> tuple[Template, dict[str, Any]]:
        """The template `render(kind, ruleset)` uses, and the names it is given besides the
        mail's own (the globals, the ruleset's events and status templates): looked up once
        per kind and ruleset until `refresh`, not once per mail."""
        found = self._mail_templates.get((kind, ruleset))
        if found is None:
            template = self.env.get_template(self._template_name(kind, ruleset))
            found = (template, {**template.globals, **self.ruleset_templates(ruleset)})
            self._mail_templates[kind, ruleset] = found
        return found

    def render(self, kind: str, ruleset: str, **context: Any) -> RenderedMail:
        template, names = self._mail_template(kind, ruleset)
        # What Template.render does, less its copies of the names: they are merged here once,
        # the mail's own last, as Jinja would ("shared" takes the dict as the template's names).
        try:
            text = self.env.concat(
                template.root_render_func(
                    template.new_context({**names, **greeting(context), **context}, shared=True)
                )
            )
        except Exception:
            self.env.handle_exception()  # raises it again, its traceback pointing into the template
        head, _, body = text.partition("\n\n")
        if not head.startswith("Subject: "):
            raise ValueError(f"template {template.name} must start with a 'Subject: ' line")
        return RenderedMail(
            head[len("Subject: ") :].strip(),
            tidy(body),
            map_attachments(kind, context, self.board_word),
        )

    def describe(self, ruleset: str, event: Event | Mapping[str, Any]) -> str:
        """One event in words (the public summaries `pbp demo` prints, the public posts); the
        event may also be given as stored JSON."""
        if not isinstance(event, Event):
            event = Event(event["kind"], event.get("data", {}))
        module = self.env.get_template(self.ruleset_templates(ruleset)["events_template"]).module
        describe: Callable[[dict[str, Any]], object] = getattr(
            module, "describe"
        )  # the template's macro
        return str(describe(event_json(event))).strip()


@lru_cache(maxsize=None)
def _card(ruleset: str) -> RulesetCard:
    try:
        return engine.ruleset(ruleset).card
    except GameSetupError:  # a ruleset outside the registry (a test's toy) words and draws nothing
        return RulesetCard(game_id_prefix="", phase_kinds=(), orders=())


def board_text(ruleset: str, view: Mapping[str, Any], word: Callable[[str], str] = str) -> str:
    """The picture of the board `view` shows, as mail text ("" for none), from the ruleset's
    card; report templates call it as `board_text(game.ruleset, view)`."""
    return _card(ruleset).board_text(view, word)


def greeting(context: Mapping[str, Any]) -> dict[str, str]:
    """`greeting`: how a mail to `player` says hello. After a substitution the character's
    mail goes to the newcomer, who is greeted by their own name and told whom they play."""
    player = context.get("player")
    if not isinstance(player, str):
        return {}
    game = context.get("game")
    newcomer = game.get("played_by", {}).get(player) if isinstance(game, Mapping) else None
    return {"greeting": f"{newcomer}, you play {player}" if newcomer else player}


@lru_cache(maxsize=4096)
def phase_words(ruleset: str, phase_id: str) -> str:
    """A phase as a player reads it (`Night 1`, `Day 2 — vote`), from the ruleset's card;
    templates call it as `phase_words(game.ruleset, phase)`, each receipt's subject too, so
    each phase is worded once. Mail about a finished game is filed under the phase `over`,
    which reads as "the finished game"."""
    if phase_id == FINISHED:
        return "the finished game"
    return _card(ruleset).phase_words(phase_id) if phase_id else phase_id


def subject_words(ruleset: str, phase_id: str) -> str:
    """The phase words for a subject line, in ASCII punctuation (`Day 2, vote`): the email
    package folds a long subject before a non-ASCII word with a doubled space."""
    return phase_words(ruleset, phase_id).replace(" — ", ", ")


def map_attachments(
    kind: str, context: dict[str, Any], word: Callable[[str], str] = str
) -> tuple[Attachment, ...]:
    """The board's picture as `map.svg` for a report whose view shows one (the
    Infiltration facility; not the last report, which has no status and so no map), its
    words worded by `word` in the reader's language as the mail's text map is."""
    view, game = context.get("view"), context.get("game")
    if (
        kind != "report"
        or context.get("result")
        or not isinstance(view, dict)
        or not isinstance(game, Mapping)
    ):
        return ()
    svg = _card(str(game.get("ruleset", ""))).board_svg(view, word)
    return (Attachment("map.svg", "image/svg+xml", svg),) if svg else ()


def tidy(body: str) -> str:
    """No trailing spaces, at most one blank line in a row, one final newline."""
    lines = [line.rstrip() for line in body.splitlines()]
    out: list[str] = []
    for line in lines:
        if not line and out and not out[-1]:
            continue
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"


def event_json(event: Event | dict[str, Any]) -> dict[str, Any]:
    return event.to_json() if isinstance(event, Event) else dict(event)
