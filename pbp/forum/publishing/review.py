"""The host's review of drafts (docs/design.md: Public posts): finding one, editing it,
approving one or all (a draft the leak check flags needs a force), auto-publishing."""

from __future__ import annotations


from pbp.errors import UserError
from pbp.storage.drafts import (
    APPROVED,
    DRAFT,
    OPTIONAL_KINDS,
    PUBLISHED,
    WITHDRAWN,
    DraftBook,
    DraftRow,
)
from pbp.forum.config import TALLY_ONLY, ForumSettings
from pbp.forum.publishing.publisher import post_marker
from pbp.game.stored import StoredGame
from pbp.forum.publishing.leaks import draft_leaks, player_spans
from pbp.storage.drafts import OPENING


def find_draft(book: DraftBook, game_id: str, phase: str | None) -> DraftRow:
    pending = book.unpublished()
    # By default the oldest post that holds the thread up; an optional one (a running
    # count, the opening post) only when nothing else is pending.
    main = [row for row in pending if row.kind not in OPTIONAL_KINDS]
    row = book.get(phase) if phase else next(iter(main or pending or book.all()), None)
    if row is None:
        if phase:
            raise UserError.of(
                "Game %(game)s has no draft for phase %(phase)s; drafts are made when a phase"
                " resolves (or by `pbp draft tally %(game)s`).",
                game=game_id,
                phase=phase,
            )
        raise UserError.of(
            "Game %(game)s has no draft yet; drafts are made when a phase resolves (or by"
            " `pbp draft tally %(game)s`).",
            game=game_id,
        )
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


def edit(game: StoredGame, phase: str, text: str) -> DraftRow:
    """Keep the host's edit; it is a draft again and its leaks are checked anew."""
    book = DraftBook(game.file)
    row = find_draft(book, game.id, phase)
    if row.status == PUBLISHED:
        raise UserError(
            f"The post for {row.phase} is already published; edit it on the forum itself."
        )
    _refuse_withdrawn(game, row)
    leaks = draft_leaks(game, book, text, player_spans(row, text))
    return book.update(
        row.phase,
        {
            "text": text,
            "edited": text != row.generated or row.edited,
            "status": DRAFT,
            "leaks": leaks,
            "marker": "",
        },
    )


def oldest_unapproved(book: DraftBook) -> DraftRow | None:
    """What `pbp draft approve <game>` approves when no phase is named: the oldest draft
    still waiting for the host that holds the thread up, else the oldest optional one (a
    running count, the opening post), else None."""
    waiting = [row for row in book.unpublished() if row.status == DRAFT]
    holding = [row for row in waiting if row.kind not in OPTIONAL_KINDS]
    return next(iter(holding or waiting), None)


def approve(game: StoredGame, phase: str | None, forced: bool = False) -> DraftRow:
    """Approve a draft for publishing (no `phase`: the oldest one not approved yet). The
    leak check runs on its current text; if it finds a hidden fact, only `forced` approves it."""
    book = DraftBook(game.file)
    if phase is None:
        waiting = oldest_unapproved(book)
        if waiting is None:
            raise UserError.of(
                "Game %(game)s has no draft waiting for approval; `pbp status %(game)s` lists"
                " its drafts.",
                game=game.id,
            )
        phase = waiting.phase
    row = find_draft(book, game.id, phase)
    if row.status == PUBLISHED:
        raise UserError.of("The post for %(phase)s is already published.", phase=row.phase)
    _refuse_withdrawn(game, row)
    leaks = draft_leaks(game, book, row.text, player_spans(row, row.text))
    if leaks and not forced:
        book.update(row.phase, {"leaks": leaks})
        raise UserError(
            f"The draft for {row.phase} fails the leak check: {leaks[0]}"
            f"{f' (and {len(leaks) - 1} more)' if len(leaks) > 1 else ''}; "
            f"edit it with `pbp draft edit {game.id}`, or approve it anyway with --force."
        )
    marker = post_marker(game.id, row.phase, row.text)
    return book.update(
        row.phase,
        {
            "status": APPROVED,
            "marker": marker,
            "leaks": leaks,
            "forced": bool(leaks),
            "source": None,
        },
    )  # approved: its text is final, in its dialect


def approve_all(game: StoredGame) -> tuple[list[DraftRow], list[tuple[str, str]]]:
    """Approve every draft waiting for approval that passes the leak check, oldest first:
    (the approved rows, (phase, why) for each one left waiting)."""
    approved, refused = [], []
    for row in DraftBook(game.file).unpublished():
        if row.status != DRAFT:
            continue
        try:
            approved.append(approve(game, row.phase))
        except UserError as error:
            refused.append((row.phase, str(error)))
    return approved, refused


def _refuse_withdrawn(game: StoredGame, row: DraftRow) -> None:
    if row.status == WITHDRAWN and row.kind == OPENING:
        raise UserError.of(
            "The opening post of %(game)s was left out: the thread has begun without it.",
            game=game.id,
        )
    if row.status == WITHDRAWN:
        raise UserError.of(
            "The running count %(count)s is out of date (a newer count or the phase's own post"
            " replaced it); draft a new one with `pbp draft tally %(game)s`.",
            count=row.phase,
            game=game.id,
        )


def first_unapproved(game: StoredGame) -> DraftRow | None:
    """The draft that holds up a game's publishing (not approved, not a running tally),
    or None."""
    return next(
        (
            row
            for row in DraftBook(game.file).unpublished()
            if row.status == DRAFT and row.kind not in OPTIONAL_KINDS
        ),
        None,
    )
