"""Drafting the public thread's posts over stored games (docs/design.md: Public posts): after
each resolution, for a host action, the opening post and a running tally; the facts they
show and the leak check. Everything writes into the game's own file through `DraftBook`;
the callers decide the transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Iterable, Mapping, Sequence

from engine.core import Ruleset, RulesetCard
from pbp.errors import UserError
from pbp.storage.drafts import DRAFT, OPENING, DraftBook, DraftRow
from pbp.forum.config import ForumSettings
from pbp.forum.publishing.dialects import Dialect, dialect as make_dialect
from pbp.forum.publishing.post_renderer import Draft, PostFacts, PostRenderer
from pbp.forum.thread.standing_votes import deleted_vote_posts, vote_links
from pbp.forum.thread.forum_names import forum_accounts
from pbp.forum.publishing.post_facts import thread_facts
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import StoredGame
from pbp.render.words import role_name
from pbp.game.options import thread_language
from pbp.render.moments import render_moment
from pbp.game import tally as public_tally
from pbp.forum.publishing.leaks import draft_leaks
from pbp.forum.publishing.review import approve, auto_publish


def living_voters(card: RulesetCard, public_view: Mapping[str, Any]) -> list[str]:
    """Living players (never NPCs) as the public view lists them (the card's public roster)."""
    return [
        character.name
        for character in card.public_roster(public_view)
        if character.alive and not character.npc
    ]


def role_list(
    rules: Ruleset,
    state: object,
    roster: Iterable[RosterPlayer] = (),
    accounts: Mapping[str, str] | None = None,
) -> list[dict[str, Any]]:
    """The full role list, once the game is over: every character the public view lists, in the
    words the ruleset reveals it with (its card's `PlayerStatus.revealed`: a role, or class and
    team), with its player's forum account, or marked as an NPC. A character that changed hands
    credits every player who played it, in turn (`players`), from the roster: substitutions are
    the moderator's record, never the engine's (pbp.host.substitute)."""
    if rules.result(state) is None:
        return []
    roster = list(roster)
    credits = {
        player.name: [old["played_by"] for old in player.replaced] + [player.player]
        for player in roster
        if player.replaced
    }
    handles = (
        dict(accounts)
        if accounts is not None
        else {player.name: player.forum_name for player in roster}
    )
    rows = []
    for character in rules.card.public_roster(rules.view(state, None)):
        parts = [role_name(word.lower()) for word in rules.status(state, character.name).revealed]
        if parts:
            row = {
                "name": character.name,
                "role_text": " ".join(parts),
                "handle": handles.get(character.name, ""),
                "npc": character.npc,
            }
            if character.name in credits:
                row["players"] = ", then ".join(credits[character.name])
            rows.append(row)
    return rows


def host_action_key(book: DraftBook, phase: str) -> str:
    """The key of the next host action's post in `phase`: `<phase>/host-N`."""
    count = sum(1 for row in book.all() if row.phase.startswith(f"{phase}/host-"))
    return f"{phase}/host-{count + 1}"


def dialect_of(book: DraftBook, forum: ForumSettings) -> Dialect:
    """The game's dialect (`pbp draft settings --dialect`), else the settings file's."""
    return make_dialect(book.game_settings().get("dialect") or forum.dialect)


def draft_resolution(
    renderer: PostRenderer,
    forum: ForumSettings,
    before: StoredGame,
    after: StoredGame,
    phase: str,
    public_events: Sequence[Mapping[str, Any]],
) -> DraftRow:
    """The draft for a resolved phase: rendered from the public view after it and its
    public events (votes counted against the players alive before it), leak-checked."""
    book = DraftBook(after.file)
    dialect = dialect_of(book, forum)
    view = after.view(None)
    facts = PostFacts(
        game=after.id,
        ruleset=after.record.ruleset,
        phase=phase,
        public_view=view,
        events=list(public_events),
        result=after.record.result,
        voters=living_voters(before.rules.card, before.view(None)),
        extra={
            "roles": role_list(after.rules, after.state, after.roster, forum_accounts(after)),
            **thread_facts(after, view),
        },
        phase_words=after.rules.card.phase_words,
    )
    draft = renderer.render(facts, dialect)
    book.withdraw_tallies(phase)  # the post itself now carries the phase's final count
    return _draft(after, book, forum, phase, draft, dialect.name, source=_source("post", facts))


def draft_host_action(
    renderer: PostRenderer,
    forum: ForumSettings,
    game: StoredGame,
    phase: str,
    public_events: Sequence[Mapping[str, Any]],
) -> DraftRow:
    """The public announcement of a host action (a substitution, a host kill) as its own
    short post, keyed `<phase>/host-N` (docs/design.md: Public posts).

    A forum host announces a replacement or a removal at once, not at the next deadline:
    players must know at once whom they are talking to, and that a removed player's posts
    no longer count. So it is its own draft, reviewed and approved like any other, and
    published in order with the phase posts (drafts publish in the order they were made).
    `game` is the game after the action; `phase` is the phase it happened in."""
    book = DraftBook(game.file)
    dialect = dialect_of(book, forum)
    view = game.rules.view(game.state, None)
    facts = PostFacts(
        game=game.id,
        ruleset=game.record.ruleset,
        phase=phase,
        public_view=view,
        events=list(public_events),
        result=game.record.result,
        extra={
            "roles": role_list(game.rules, game.state, game.roster, forum_accounts(game)),
            **thread_facts(game, view),
        },
        phase_words=game.rules.card.phase_words,
    )
    # A change of the clock (extend, pause, resume) has its own short template.
    template = (
        "clock"
        if public_events and all(e.get("kind") == "clock" for e in public_events)
        else "host"
    )
    draft = renderer.render(facts, dialect, kind=template)
    return _draft(
        game,
        book,
        forum,
        host_action_key(book, phase),
        draft,
        dialect.name,
        kind="host",
        source=_source(template, facts),
    )


def draft_opening(renderer: PostRenderer, forum: ForumSettings, game: StoredGame) -> DraftRow:
    """The game's opening post, drafted when the game is created: a summary of the rules,
    the setup, the players with their forum handles, how to send orders, and the first
    phase with its deadline. Unapproved, it holds nothing up, and once a later post is
    published it is withdrawn: its place at the head of the thread has passed."""
    book = DraftBook(game.file)
    dialect = dialect_of(book, forum)
    view = game.rules.view(game.state, None)
    npcs = [{"name": name} for name in game.record.npc_names]  # never their class or team
    facts = PostFacts(
        game=game.id,
        ruleset=game.record.ruleset,
        phase=game.phase.id if game.phase else "",
        public_view=view,
        extra={**thread_facts(game, view), "npcs": npcs},
        phase_words=game.rules.card.phase_words,
    )
    draft = renderer.render(facts, dialect, kind=OPENING)
    return _draft(
        game,
        book,
        forum,
        OPENING,
        draft,
        dialect.name,
        kind=OPENING,
        source=_source(OPENING, facts),
    )


def _source(template: str, facts: PostFacts) -> dict[str, Any]:
    return {"template": template, "facts": facts.stored()}


def _draft(
    game: StoredGame,
    book: DraftBook,
    forum: ForumSettings,
    key: str,
    draft: Draft,
    dialect: str,
    kind: str = "post",
    source: Mapping[str, Any] | None = None,
) -> DraftRow:
    """Store a generated post, leak-checked, and approve it at once when the game
    auto-publishes and the check found nothing."""
    leaks = draft_leaks(game, book, draft.text, draft.player_spans)
    row = book.save_generated(
        key, draft.title, draft.text, draft.player_spans, dialect, leaks, kind=kind, source=source
    )
    if auto_publish(book, forum, kind) and not leaks and row.status == DRAFT:
        row = approve(game, key, forced=False)
    return row


def draft_tally(
    renderer: PostRenderer, forum: ForumSettings, game: StoredGame, now: datetime
) -> DraftRow:
    """A running vote count for the open phase as of `now` (the post says when: a count
    read later is already old), stored as its own draft. It replaces an
    earlier count of the phase that nobody approved; one left unapproved never holds up
    the posts after it, and is withdrawn when the phase resolves (its post has the final
    count)."""
    if game.phase is None:
        raise UserError(f"Game {game.id} is over; there is no vote to count.")
    book = DraftBook(game.file)
    dialect = dialect_of(book, forum)
    view = game.rules.view(game.state, None)
    voters = public_tally.living_voters(game)
    votes = {p: c for p, c in public_tally.current_votes(game).items() if p in voters}
    facts = PostFacts(
        game=game.id,
        ruleset=game.record.ruleset,
        phase=game.phase.id,
        public_view=view,
        votes=votes,
        voters=voters,
        extra={
            **thread_facts(game, view),
            "vote_links": vote_links(game),
            "deleted_votes": deleted_vote_posts(game),
            "as_of": render_moment(now, "UTC", thread_language(game.record.moderator_options)),
        },
        phase_words=game.rules.card.phase_words,
    )
    draft = renderer.render(facts, dialect, kind="tally")
    count = sum(1 for row in book.all() if row.phase.startswith(f"{game.phase.id}/tally"))
    key = f"{game.phase.id}/tally-{count + 1}"
    book.withdraw_tallies(game.phase.id)
    return _draft(
        game, book, forum, key, draft, dialect.name, kind="tally", source=_source("tally", facts)
    )


def rerender(
    renderer: PostRenderer, forum: ForumSettings, game: StoredGame
) -> tuple[list[str], list[str]]:
    """Render every draft still waiting for the host again in the game's dialect (after
    `pbp draft settings --dialect`), from the facts it was drafted from, leak-checked
    anew. Returns (the drafts rendered again, one line for each draft kept as it was: the
    host's edit is never overwritten). Approved and published posts keep their dialect."""
    book = DraftBook(game.file)
    dialect = dialect_of(book, forum)
    done, kept = [], []
    for row in book.all():
        if row.status != DRAFT or row.dialect == dialect.name:
            continue
        source = row.source
        if row.edited or not source:
            why = (
                "it holds your edit"
                if row.edited
                else "it was drafted before drafts kept their facts"
            )
            kept.append(
                f"{row.phase} stays in {row.dialect}: {why}; edit it with `pbp draft edit "
                f"{game.id} {row.phase}`."
            )
            continue
        facts = PostFacts.restored(source["facts"], game.rules.card.phase_words)
        draft = renderer.render(facts, dialect, kind=source["template"])
        _draft(game, book, forum, row.phase, draft, dialect.name, kind=row.kind, source=source)
        done.append(row.phase)
    return done, kept
