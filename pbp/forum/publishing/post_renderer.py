"""Drafting public posts from templates fed only the public view (docs/design.md: Public
posts).

Templates live in `templates/public/`: `<ruleset>/post.j2` (or the shared `post.j2`) for
a resolution, `tally.j2` for a running vote count, `host.j2` for a public host action.
They are written once for both dialects: markup comes from `fmt` (the game's dialect:
`fmt.bold`, `fmt.item`, `fmt.quote`, …).

Escaping is automatic, like HTML autoescaping: every `{{ value }}` a template prints is
escaped for the dialect unless the dialect made it (`PostText`). The `escape_post` filter
does the same explicitly; `player_text` also marks the value as written by a player (an
anonymous message), which the leak check leaves out since the rules make it public: the
draft knows those spans by position (pbp.forum.publishing.spans).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence

from jinja2 import (
    ChoiceLoader,
    Environment,
    FileSystemLoader,
    PrefixLoader,
    StrictUndefined,
    Template,
    TemplateNotFound,
)

from engine.core import Result

from pbp.forum.publishing.dialects import Dialect, PostText
from pbp.forum.publishing.spans import Span, mark, unmark
from pbp.game.record_parts import result_from_json
from pbp.game.tally import tally
from pbp.forum.publishing.post_language import post_gettext
from pbp.render import words as host_words
from pbp.render.glossary_words import GlossaryWords
from pbp.render.languages import SOURCE_LANGUAGE, translations
from pbp.release import templates_folder
from pbp.render.view_environment import ViewEnvironment
from pbp.game.options import thread_language
from pbp.game.stored import StoredGame
from pbp.moderator import Moderator


@dataclass(frozen=True)
class Draft:
    """A rendered post: its title, its text, and where the text holds player-written
    words, as (start, end) offsets."""

    title: str
    text: str
    player_spans: tuple[Span, ...] = ()

    @property
    def player_written(self) -> tuple[str, ...]:
        """The player-written words themselves (as they appear in the text, i.e. escaped)."""
        return tuple(self.text[start:end] for start, end in self.player_spans)


@dataclass(frozen=True)
class PostFacts:
    """Everything a post may use: the public view and the resolution's public events.

    `votes` maps each voter to their latest choice, for a running tally; `voters` are the
    living players expected to vote in that phase. `phase_words` is the ruleset card's:
    templates write `words(phase)` (`Day 2 — the vote`), never a phase id.
    """

    game: str
    ruleset: str
    phase: str
    public_view: Mapping[str, Any]
    events: Sequence[Mapping[str, Any]] = ()
    result: Result | None = None
    votes: Mapping[str, str] = field(default_factory=dict)
    voters: Sequence[str] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)
    phase_words: Callable[[str], str] = str

    def stored(self) -> dict[str, Any]:
        """The facts as a draft keeps them, to render it again in another dialect
        (`phase_words` is the ruleset card's, so it is not kept)."""
        return {
            "game": self.game,
            "ruleset": self.ruleset,
            "phase": self.phase,
            "public_view": self.public_view,
            "events": list(self.events),
            "result": self.result.to_json() if self.result else None,
            "votes": dict(self.votes),
            "voters": list(self.voters),
            "extra": dict(self.extra),
        }

    @classmethod
    def restored(cls, data: Mapping[str, Any], phase_words: Callable[[str], str]) -> PostFacts:
        return cls(
            **{**data, "result": result_from_json(data.get("result"))}, phase_words=phase_words
        )


class PostRenderer:
    """Renders public posts in one language (the game's option `language`); one Jinja
    environment per dialect."""

    def __init__(
        self,
        root: Path | None = None,
        describe: Callable[[str, Mapping[str, Any]], str] | None = None,
        language: str = SOURCE_LANGUAGE,
    ):
        """`language`: the language the posts are written in (pbp.render.languages)."""
        self.root = Path(root) if root else templates_folder()
        self.language = language
        self.describe = describe or (lambda ruleset, event: event.get("kind", "").replace("_", " "))
        self._envs: dict[str, Environment] = {}

    def environment(self, dialect: Dialect) -> Environment:
        if dialect.name not in self._envs:
            env = ViewEnvironment(
                # `words/…`: the mail templates, whose macros a post may share (one wording)
                loader=ChoiceLoader(
                    [
                        FileSystemLoader(str(self.root / "public")),
                        PrefixLoader({"words": FileSystemLoader(str(self.root))}),
                    ]
                ),
                undefined=StrictUndefined,
                keep_trailing_newline=True,
                autoescape=True,
                trim_blocks=True,
                lstrip_blocks=True,
                finalize=_finalize(dialect),
                extensions=["jinja2.ext.i18n"],
            )
            env.install_gettext_translations(translations(self.language), newstyle=True)  # type: ignore[attr-defined]
            env.filters["escape_post"] = _finalize(dialect)
            env.filters["player_text"] = _player_text_filter(dialect)
            if self.language == SOURCE_LANGUAGE:
                host_words.install(env)
            else:  # roles, sides and phases by the glossary's names (docs/design.md: Languages)
                env.filters.update(GlossaryWords(self.language).filters())
            env.globals["fmt"] = dialect
            env.globals["tally"] = tally
            env.globals.update(post_gettext(dialect, translations(self.language)))
            self._envs[dialect.name] = env
        return self._envs[dialect.name]

    def _template(self, env: Environment, ruleset: str, kind: str) -> Template:
        try:
            return env.get_template(f"{ruleset}/{kind}.j2")
        except TemplateNotFound:
            return env.get_template(f"{kind}.j2")

    def _phase_words(self, english: Callable[[str], str]) -> Callable[[str], str]:
        """The card's phase words (`Day 2 — vote`) in the posts' language."""
        if self.language == SOURCE_LANGUAGE:
            return english
        wording = GlossaryWords(self.language)
        return lambda phase: wording.phase_name(english(phase))

    def render(self, facts: PostFacts, dialect: Dialect, kind: str = "post") -> Draft:
        """`kind` is `post` (a resolution), `tally` (a running count), `host` (a public
        host action: a substitution, a host kill) or `opening` (the game's first post)."""
        env = self.environment(dialect)
        describe = lambda event: self.describe(facts.ruleset, event)  # noqa: E731
        text = self._template(env, facts.ruleset, kind).render(
            game=facts.game,
            ruleset=facts.ruleset,
            phase=facts.phase,
            view=facts.public_view,
            events=list(facts.events),
            result=facts.result,
            votes=dict(facts.votes),
            voters=list(facts.voters),
            describe=describe,
            extra=dict(facts.extra),
            words=self._phase_words(facts.phase_words),
        )
        title, _, body = text.partition("\n")
        body, spans = unmark(_tidy(body))
        return Draft(dialect.title(unmark(title.strip())[0]), body, spans)


# One post renderer per mail renderer (see `post_renderer`).
_POST_RENDERERS: "weakref.WeakKeyDictionary[Any, PostRenderer]" = weakref.WeakKeyDictionary()


class EventDescriber(Protocol):
    """What describes an event in words (pbp.render.renderer.Renderer), in its language."""

    language: str

    def describe(self, ruleset: str, event: Mapping[str, Any]) -> str: ...


def post_renderer(renderer: EventDescriber) -> PostRenderer:
    """The post renderer that goes with the mail renderer `renderer` (pbp.render.renderer.Renderer),
    describing events with it. Made once per mail renderer, so the public templates are
    compiled once for as long as it lives (`pbp run` keeps one for its life) instead of
    at every resolution; Jinja still looks at each template's file when it is used, so a
    host's edit is picked up."""
    found = _POST_RENDERERS.get(renderer)
    if found is None:
        owner = weakref.ref(renderer)  # the value must not keep its key alive

        def describe(ruleset: str, event: Mapping[str, Any]) -> str:
            alive = owner()
            if alive is None:
                raise RuntimeError("the mail renderer that describes this post's events is gone")
            return alive.describe(ruleset, event)

        found = _POST_RENDERERS[renderer] = PostRenderer(
            describe=describe, language=getattr(renderer, "language", SOURCE_LANGUAGE)
        )
    return found


def thread_post_renderer(moderator: Moderator, game: StoredGame) -> PostRenderer:
    """The post renderer of `game`'s thread: in the game's language (its option `language`)."""
    return post_renderer(moderator.renderer_for(thread_language(game.record.moderator_options)))


def _finalize(dialect: Dialect) -> Callable[[Any], Any]:
    """Escape every printed value for the dialect, except finished markup (`PostText`,
    or a macro's output, which Jinja marks with `__html__`)."""

    def finalize(value: Any) -> Any:
        if hasattr(value, "__html__"):
            return value
        return dialect.escape("" if value is None else value)

    return finalize


def _player_text_filter(dialect: Dialect) -> Callable[[Any], PostText]:
    def player_text(value: Any) -> PostText:
        return PostText(mark(dialect.escape_player_text(value).strip()))

    return player_text


def _tidy(body: str) -> str:
    """No trailing spaces, at most one blank line in a row, one final newline."""
    out: list[str] = []
    for line in (line.rstrip() for line in body.splitlines()):
        if not line and (not out or not out[-1]):
            continue
        out.append(line)
    return "\n".join(out).strip("\n") + "\n"
