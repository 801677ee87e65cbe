"""The public thread's work over stored games (docs/design.md: Public posts): drafting after each resolution
and on demand (a running tally), the leak check, host review, and publishing in order.

Everything here takes a loaded game (pbp.game.stored.StoredGame) and writes into the game's own file
through `DraftBook`; the callers decide the transaction.
"""
from __future__ import annotations

import time
from typing import Callable, Iterable, Mapping, Sequence

from engine.core import Ruleset
from pbp.crashpoints import crash_point
from pbp.errors import UserError
from pbp.storage.drafts import APPROVED, DRAFT, OPTIONAL_KINDS, PUBLISHED, WITHDRAWN, DraftBook
from pbp.forum.config import TALLY_ONLY, ForumSettings
from pbp.forum.dialects import dialect as make_dialect
from pbp.forum.drafting import Draft, PostFacts, PostRenderer
from pbp.forum.files import FilePublisher
from pbp.forum.leaks import LeakCheck
from pbp.forum.publishing import (
    PermanentPublishError,
    Post,
    Publisher,
    TransientPublishError,
    post_marker,
    with_marker,
)
from pbp.forum.spans import follow
from pbp.forum.post_facts import thread_facts
from pbp.game.stored import StoredGame
from pbp.forum import tally as public_tally

FIRST_RETRY = 60.0
LONGEST_RETRY = 3600.0


def backoff(attempts: int) -> float:
    """A minute after the first failure, doubling, at most an hour."""
    return min(FIRST_RETRY * 2 ** max(attempts - 1, 0), LONGEST_RETRY)


# --------------------------------------------------------------------------- facts
def _players(view: Mapping) -> list[dict]:
    return [p for p in view.get("players", []) if isinstance(p, Mapping)]


def living_voters(public_view: Mapping) -> list[str]:
    """Living players (never NPCs) as the public view lists them."""
    return [p["name"] for p in _players(public_view) if p.get("alive") and not p.get("npc")]


def role_list(rules: Ruleset, state: object, roster: Sequence[Mapping] = ()) -> list[dict]:
    """The full role list, once the game is over: every character the public view lists,
    in the words the ruleset reveals it with (its card's `PlayerStatus.revealed`: a role,
    or class and team). A character that changed hands credits every player who played
    it, in turn (`players`), from the roster: substitutions are the moderator's record,
    never the engine's (pbp.host.substitute)."""
    if rules.result(state) is None:
        return []
    credits = {entry["name"]: [old["played_by"] for old in entry["replaced"]] + [entry.get("played_by", entry["name"])]
               for entry in roster if entry.get("replaced")}
    rows = []
    for entry in _players(rules.view(state, None)):
        parts = [word.replace("_", " ").capitalize() for word in rules.status(state, entry["name"]).revealed]
        if parts:
            row = {"name": entry["name"], "role_text": " ".join(parts)}
            if entry["name"] in credits:
                row["players"] = ", then ".join(credits[entry["name"]])
            rows.append(row)
    return rows


def leak_check(game: StoredGame, extra_secrets: Sequence[str] = ()) -> LeakCheck:
    """What players privately know (their views) against the public view, plus tokens.
    Once the game is over nothing of it is secret any more (the end post gives every role
    and every secret action, rooms included): only the tokens still are."""
    names = [entry["name"] for entry in game.record["roster"]]
    over = game.phase is None
    private = {} if over else {name: game.view(name) for name in names}
    tokens = list(game.record.get("tokens", {}).values()) + list(extra_secrets)
    everyone = names + [npc["name"] for npc in game.record.get("npcs", [])]
    return LeakCheck(private, game.view(None), everyone, tokens)


def _leaks(game: StoredGame, book: DraftBook, text: str, spans: Iterable[Sequence[int]]) -> list[str]:
    """The leak check's findings on a post's text (the host token counts as a secret)."""
    return [str(leak) for leak in leak_check(game, [book.host_token()]).check(text, spans)]


def host_action_key(book: DraftBook, phase: str) -> str:
    """The key of the next host action's post in `phase`: `<phase>/host-N`."""
    count = sum(1 for row in book.all() if row["phase"].startswith(f"{phase}/host-"))
    return f"{phase}/host-{count + 1}"


def player_spans(row: dict, text: str) -> tuple[tuple[int, int], ...]:
    """Where `text`, the current text of draft `row`, still holds the player-written words
    of the generated draft: a host's edit keeps them only on the lines it left as they were
    (pbp.forum.spans). A draft stored before spans were kept has none, so all of it is checked."""
    return follow(row.get("player_spans", []), row["generated"], text)


def dialect_of(book: DraftBook, forum: ForumSettings):
    """The game's dialect (`pbp draft settings --dialect`), else the settings file's."""
    return make_dialect(book.game_settings().get("dialect") or forum.dialect)


# --------------------------------------------------------------------------- drafting
def draft_resolution(renderer: PostRenderer, forum: ForumSettings, before: StoredGame, after: StoredGame,
                     phase: str, public_events: Sequence[Mapping]) -> dict:
    """The draft for a resolved phase: rendered from the public view after it and its
    public events (votes counted against the players alive before it), leak-checked."""
    book = DraftBook(after.file)
    dialect = dialect_of(book, forum)
    view = after.view(None)
    facts = PostFacts(game=after.id, ruleset=after.record["ruleset"], phase=phase, public_view=view,
                      events=list(public_events), result=after.record.get("result"),
                      voters=living_voters(before.view(None)),
                      extra={"roles": role_list(after.rules, after.state, after.record["roster"]), **thread_facts(after, view)},
                      phase_words=after.rules.card.phase_words)
    draft = renderer.render(facts, dialect)
    book.withdraw_tallies(phase)  # the post itself now carries the phase's final count
    return _draft(after, book, forum, phase, draft, dialect.name)


def draft_host_action(renderer: PostRenderer, forum: ForumSettings, game: StoredGame, phase: str,
                      public_events: Sequence[Mapping]) -> dict:
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
    facts = PostFacts(game=game.id, ruleset=game.record["ruleset"], phase=phase, public_view=view,
                      events=list(public_events), result=game.record.get("result"),
                      extra={"roles": role_list(game.rules, game.state, game.record["roster"]), **thread_facts(game, view)},
                      phase_words=game.rules.card.phase_words)
    # A change of the clock (extend, pause, resume) has its own short template.
    template = "clock" if public_events and all(e.get("kind") == "clock" for e in public_events) else "host"
    draft = renderer.render(facts, dialect, kind=template)
    return _draft(game, book, forum, host_action_key(book, phase), draft, dialect.name, kind="host")


OPENING = "opening"  # the key of a game's opening post


def draft_opening(renderer: PostRenderer, forum: ForumSettings, game: StoredGame) -> dict:
    """The game's opening post, drafted when the game is created: a summary of the rules,
    the setup, the players with their forum handles, how to send orders, and the first
    phase with its deadline. Unapproved, it holds nothing up, and once a later post is
    published it is withdrawn: its place at the head of the thread has passed."""
    book = DraftBook(game.file)
    dialect = dialect_of(book, forum)
    view = game.rules.view(game.state, None)
    facts = PostFacts(game=game.id, ruleset=game.record["ruleset"], phase=game.phase.id if game.phase else "",
                      public_view=view, extra={**thread_facts(game, view), "npcs": game.record.get("npcs", [])},
                      phase_words=game.rules.card.phase_words)
    draft = renderer.render(facts, dialect, kind=OPENING)
    return _draft(game, book, forum, OPENING, draft, dialect.name, kind=OPENING)


def _draft(game: StoredGame, book: DraftBook, forum: ForumSettings, key: str, draft: Draft, dialect: str,
           kind: str = "post") -> dict:
    """Store a generated post, leak-checked, and approve it at once when the game
    auto-publishes and the check found nothing."""
    leaks = _leaks(game, book, draft.text, draft.player_spans)
    row = book.save_generated(key, draft.title, draft.text, draft.player_spans, dialect, leaks, kind=kind)
    if auto_publish(book, forum, kind) and not leaks and row["status"] == DRAFT:
        row = approve(game, key, forced=False)
    return row


def draft_tally(renderer: PostRenderer, forum: ForumSettings, game: StoredGame) -> dict:
    """A running vote count for the open phase, stored as its own draft. It replaces an
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
    facts = PostFacts(game=game.id, ruleset=game.record["ruleset"], phase=game.phase.id, public_view=view,
                      votes=votes, voters=voters,
                      extra=thread_facts(game, view), phase_words=game.rules.card.phase_words)
    draft = renderer.render(facts, dialect, kind="tally")
    count = sum(1 for row in book.all() if row["phase"].startswith(f"{game.phase.id}/tally"))
    key = f"{game.phase.id}/tally-{count + 1}"
    book.withdraw_tallies(game.phase.id)
    return _draft(game, book, forum, key, draft, dialect.name, kind="tally")


# --------------------------------------------------------------------------- review
def find_draft(book: DraftBook, game_id: str, phase: str | None) -> dict:
    pending = book.unpublished()
    # By default the oldest post that holds the thread up; an optional one (a running
    # count, the opening post) only when nothing else is pending.
    main = [row for row in pending if row.get("kind") not in OPTIONAL_KINDS]
    row = book.get(phase) if phase else (main or pending or book.all() or [None])[0]
    if row is None:
        which = f"for phase {phase}" if phase else "yet"
        raise UserError(f"Game {game_id} has no draft {which}; drafts are made when a phase resolves "
                        f"(or by `pbp draft tally {game_id}`).")
    return row


def auto_publish_mode(book: DraftBook, forum: ForumSettings) -> bool | str:
    """The game's auto-publish setting (`pbp draft settings`), else the settings file's:
    True, False, or "tally" (running vote counts only)."""
    value = book.game_settings().get("auto_publish")
    return forum.auto_publish if value is None else value


def auto_publish(book: DraftBook, forum: ForumSettings, kind: str = "post") -> bool:
    """Whether a draft of `kind` that passes the leak check is approved at once. A running
    count is made from public facts only (the accepted votes), so `tally` lets counts go
    out on their rhythm while every other post still waits for the host."""
    mode = auto_publish_mode(book, forum)
    return kind == "tally" if mode == TALLY_ONLY else bool(mode)


def edit(game: StoredGame, phase: str, text: str) -> dict:
    """Keep the host's edit; it is a draft again and its leaks are checked anew."""
    book = DraftBook(game.file)
    row = find_draft(book, game.id, phase)
    if row["status"] == PUBLISHED:
        raise UserError(f"The post for {row['phase']} is already published; edit it on the forum itself.")
    _refuse_withdrawn(game, row)
    leaks = _leaks(game, book, text, player_spans(row, text))
    return book.update(row["phase"], {"text": text, "edited": text != row["generated"] or row["edited"],
                                      "status": DRAFT, "leaks": leaks, "marker": ""})


def oldest_unapproved(book: DraftBook) -> dict | None:
    """What `pbp draft approve <game>` approves when no phase is named: the oldest draft
    still waiting for the host that holds the thread up, else the oldest optional one (a
    running count, the opening post), else None."""
    waiting = [row for row in book.unpublished() if row["status"] == DRAFT]
    holding = [row for row in waiting if row.get("kind") not in OPTIONAL_KINDS]
    return (holding or waiting or [None])[0]


def approve(game: StoredGame, phase: str | None, forced: bool = False) -> dict:
    """Approve a draft for publishing (no `phase`: the oldest one not approved yet). The
    leak check runs on its current text; if it finds a hidden fact, only `forced` approves it."""
    book = DraftBook(game.file)
    if phase is None:
        waiting = oldest_unapproved(book)
        if waiting is None:
            raise UserError(f"Game {game.id} has no draft waiting for approval; `pbp status {game.id}` lists "
                            "its drafts.")
        phase = waiting["phase"]
    row = find_draft(book, game.id, phase)
    if row["status"] == PUBLISHED:
        raise UserError(f"The post for {row['phase']} is already published.")
    _refuse_withdrawn(game, row)
    leaks = _leaks(game, book, row["text"], player_spans(row, row["text"]))
    if leaks and not forced:
        book.update(row["phase"], {"leaks": leaks})
        raise UserError(f"The draft for {row['phase']} fails the leak check: {leaks[0]}"
                        f"{f' (and {len(leaks) - 1} more)' if len(leaks) > 1 else ''}; "
                        f"edit it with `pbp draft edit {game.id}`, or approve it anyway with --force.")
    marker = post_marker(game.id, row["phase"], row["text"])
    return book.update(row["phase"], {"status": APPROVED, "marker": marker, "leaks": leaks, "forced": bool(leaks)})


def approve_all(game: StoredGame) -> tuple[list[dict], list[tuple[str, str]]]:
    """Approve every draft waiting for approval that passes the leak check, oldest first:
    (the approved rows, (phase, why) for each one left waiting)."""
    approved, refused = [], []
    for row in DraftBook(game.file).unpublished():
        if row["status"] != DRAFT:
            continue
        try:
            approved.append(approve(game, row["phase"]))
        except UserError as error:
            refused.append((row["phase"], str(error)))
    return approved, refused


def _refuse_withdrawn(game: StoredGame, row: dict) -> None:
    if row["status"] == WITHDRAWN and row.get("kind") == OPENING:
        raise UserError(f"The opening post of {game.id} was left out: the thread has begun without it.")
    if row["status"] == WITHDRAWN:
        raise UserError(f"The running count {row['phase']} is out of date (a newer count or the phase's "
                        f"own post replaced it); draft a new one with `pbp draft tally {game.id}`.")


# --------------------------------------------------------------------------- publishing
def publish_game(game: StoredGame, publisher: Publisher, now: Callable[[], float] = time.time,
                 ignore_wait: bool = False, on_event: Callable[[str], None] = lambda text: None) -> list[dict]:
    """Publish the game's approved drafts in phase order, stopping at the first one not
    approved (so posts never go out of order) or one that must wait for a retry.

    Idempotent: an attempt is recorded before the post goes out; a draft with an earlier
    attempt is first looked for (by its marker) among pbp's own posts, so a crash or a
    timeout after the forum accepted a post never makes a second one."""
    book = DraftBook(game.file)
    done = []
    for row in book.unpublished():
        if row["status"] != APPROVED and row.get("kind") in OPTIONAL_KINDS:
            continue  # a count the host only looked at, an opening post not wanted, hold nothing up
        if row["status"] != APPROVED:
            break
        if not ignore_wait and row["next_try"] and row["next_try"] > now():
            break
        dialect = make_dialect(row["dialect"])
        settings = book.game_settings()
        post = Post(game=game.id, phase=row["phase"], title=f"{game.id}: {row['title']}",
                    text=with_marker(row["text"], row["marker"], dialect), marker=row["marker"],
                    thread_title=f"{game.id}: {game.record['ruleset'].capitalize()} game thread",
                    thread=settings.get("thread"), dialect=dialect.name)
        try:
            found = publisher.find(post) if row["attempts"] else None
            if found is None:
                book.update(row["phase"], {"attempts": row["attempts"] + 1})
                found = publisher.publish(post)
                crash_point("forum-after-post")
        except TransientPublishError as error:
            attempts = max(row["attempts"], 1)
            book.update(row["phase"], {"error": str(error), "next_try": now() + backoff(attempts)})
            on_event(f"{game.id} {row['phase']}: will retry later: {error}")
            break
        except PermanentPublishError as error:
            book.update(row["phase"], {"error": str(error), "next_try": now() + LONGEST_RETRY})
            on_event(f"{game.id} {row['phase']}: not published: {error}")
            break
        if found.thread and not settings.get("thread"):
            book.update_game_settings({"thread": found.thread})
        done.append(book.update(row["phase"], {"status": PUBLISHED, "ref": found.ref, "url": found.url,
                                               "error": "", "next_try": 0.0}))
        if row.get("kind") != OPENING:
            book.withdraw_opening()
        on_event(f"{game.id} {row['phase']}: published ({found.url})")
    return done


def first_unapproved(game: StoredGame) -> dict | None:
    """The draft that holds up a game's publishing (not approved, not a running tally),
    or None."""
    return next((row for row in DraftBook(game.file).unpublished()
                 if row["status"] == DRAFT and row.get("kind") not in OPTIONAL_KINDS), None)


def make_publisher(forum: ForumSettings) -> Publisher:
    """The configured publisher. A file publisher names each file by its post's own
    dialect (chosen per game); the global dialect is only the fallback."""
    if forum.publisher == "reddit":
        from pbp.forum.reddit import RedditPublisher  # praw is loaded only when used
        return RedditPublisher(forum.reddit)
    return FilePublisher(forum.posts_folder, make_dialect(forum.dialect).extension)
