"""Where the moderator loop calls the public thread (docs/design.md: Public posts): after each resolution and
each public host action (draft it, mail it to the host, note the game for the thread
watch), in each turn of `pbp run` (publish what is approved, watch the Reddit threads),
and for mail from the host's address (`APPROVE` by mail)."""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from engine.core import Event
from pbp import schedule
from pbp.forum import service
from pbp.forum.book import DraftBook
from pbp.forum.config import load_forum_settings
from pbp.forum.drafting import PostRenderer
from pbp.forum.publishing import PermanentPublishError, TransientPublishError
from pbp.forum.watch import PhaseFacts, facts_now, watch_thread
from pbp.errors import UserError
from pbp.game.record import load
from pbp.rendering import RenderedMail
from pbp.token_guard import TokenGuard

HOST = "host"


def _renderer(moderator: Any) -> PostRenderer:
    def describe(ruleset: str, event: Mapping) -> str:
        return moderator.renderer.describe(ruleset, Event(event["kind"], event.get("data", {})))
    return PostRenderer(describe=describe)


def approval_form(game: str, phase: str, token: str) -> str:
    return (f"BEGIN ORDERS {game} {phase}\nTOKEN: {token}\n"
            f"# To publish this draft, remove the # at the start of the next line.\n# APPROVE\nEND ORDERS\n")


def _mail_host(moderator: Any, forum: Any, game: Any, row: dict) -> None:
    book = DraftBook(game.file)
    leaks = "".join(f"LEAK CHECK: {leak}\n" for leak in row["leaks"])
    body = (f"pbp drafted the public post for game {game.id}, phase {row['phase']}.\n\n"
            f"Title: {row['title']}\n" + "-" * 60 + f"\n{row['text'].rstrip()}\n" + "-" * 60 + "\n"
            + (leaks or "The leak check found no hidden fact.\n")
            + f"\nTo change it: pbp draft edit {game.id} {row['phase']}\n"
            f"To approve it: pbp draft approve {game.id} {row['phase']}; or reply to this mail with a line "
            f"saying APPROVE {game.id} {row['phase']} and a line saying TOKEN: and the host token (in the "
            f"block below); or reply with the block below, APPROVE un-commented.\n\n"
            + approval_form(game.id, row["phase"], book.host_token()))
    moderator.outbox.queue(game.file, phase=row["phase"], recipient=HOST, address=forum.host_address,
                           kind="draft", mail=RenderedMail(f"[{game.id}] Draft of the public post for {row['phase']}", body))


def _drafted(moderator: Any, forum: Any, game: Any, key: str, draft: Callable[[], dict]) -> dict:
    """Run `draft`; a template fault never stops the game: the host gets a placeholder
    draft saying what failed, to write by hand."""
    try:
        return draft()
    except Exception as error:  # noqa: BLE001 - a template fault must never stop the game
        problem = f"drafting failed ({type(error).__name__}: {error}); write the post with `pbp draft edit`"
        book = DraftBook(game.file)
        return book.save_generated(key, f"{game.id}: {key}", f"({problem})\n", (),
                                   service.dialect_of(book, forum).name, [problem])


def note_for_watch(game: Any, start: float) -> None:
    """Add the game as it stands now (who is dead, who is silenced) to the thread watch's
    timeline, valid from `start` (seconds since the epoch); see pbp.forum.watch."""
    book = DraftBook(game.file)
    names = [entry["name"] for entry in game.record["roster"]]
    facts = facts_now(game.rules, game.state, names, game.phase.id if game.phase else "over", start)
    book.update_game_settings({"timeline": [*book.game_settings().get("timeline", []), facts.to_json()]})


def _opened(game: Any) -> float:
    return schedule.from_text(game.record["opened"]).timestamp()


def after_resolution(moderator: Any, before: Any, after: Any, phase: str, public_events: Sequence[Mapping]) -> None:
    """Draft the post for a resolved phase and mail it to the host (call inside the
    resolution's transaction, so the draft is written with it); note the new phase for
    the thread watch.

    A resolution with no public event gets no post: Werewolf's `Nn` when `Nn-witch`
    follows ("nothing is published between them", rules/werewolf.md Night); an empty
    post would only wait for the host's approval and hold up the posts after it."""
    forum = load_forum_settings(moderator.settings)
    if not DraftBook(after.file).game_settings().get("timeline"):
        note_for_watch(before, _opened(before))  # the game's first phase
    note_for_watch(after, _opened(after))
    if not public_events:
        return
    row = _drafted(moderator, forum, after, phase, lambda: service.draft_resolution(
        _renderer(moderator), forum, before, after, phase, public_events))
    if forum.host_address:
        _mail_host(moderator, forum, after, row)


def after_host_action(moderator: Any, before: Any, after: Any, public_events: Sequence[Mapping]) -> None:
    """A public host action (a substitution, a host kill) during `before`'s open phase:
    draft its public announcement as its own post (`<phase>/host-N`, see
    service.draft_host_action), mail it to the host, and note the game for the thread
    watch (a host kill kills at once). Call inside the action's transaction."""
    forum = load_forum_settings(moderator.settings)
    phase = before.phase.id if before.phase else before.record["phase_id"] or "over"
    book = DraftBook(after.file)
    key = f"{phase}/host-{sum(1 for r in book.all() if r['phase'].startswith(f'{phase}/host-')) + 1}"
    row = _drafted(moderator, forum, after, key, lambda: service.draft_host_action(
        _renderer(moderator), forum, after, phase, public_events))
    if not book.game_settings().get("timeline"):
        note_for_watch(before, _opened(before))
    note_for_watch(after, moderator.clock().timestamp())
    if forum.host_address:
        _mail_host(moderator, forum, after, row)


def publish_due(moderator: Any, on_event: Callable[[str], None] = lambda text: None) -> int:
    """Publish every game's approved drafts whose time has come (inside `pbp run`); with
    Reddit, also watch each game's thread (at most every `WATCH_INTERVAL` seconds)."""
    forum = load_forum_settings(moderator.settings)
    games = [load(moderator, game_id) for game_id in moderator.folder.game_ids()]
    waiting = [g for g in games if any(r["status"] == "approved" for r in DraftBook(g.file).unpublished())]
    if not waiting and forum.publisher != "reddit":
        return 0
    publisher = service.make_publisher(forum)
    published = sum(len(service.publish_game(game, publisher, on_event=on_event)) for game in waiting)
    if forum.publisher == "reddit":
        try:
            watch_threads(moderator, publisher, on_warning=on_event, every=WATCH_INTERVAL)
        except Exception as error:  # noqa: BLE001 - the watch must never stop the moderator's turn
            on_event(f"thread watch failed ({type(error).__name__}: {error}); it tries again later")
    return published


# In prose on purpose: a line of its own reading `APPROVE <game> <phase>` would be taken for
# an approval when the host's reply carries this mail unquoted (some clients do).
HOST_HELP = ("pbp understood no approval in your mail. To approve a draft, reply with a line saying "
             "APPROVE, the game and the phase (for example: APPROVE ww1 D2-vote) and a line saying TOKEN: "
             "and the host token from the draft's mail; the token may also follow the phase on the "
             "APPROVE line. Or reply with the draft's block below, its line APPROVE un-commented:\n\n")


@dataclass(frozen=True)
class Approval:
    """One approval found in a host's mail: `APPROVE` inside a draft's block, or an
    `APPROVE <game> <phase> [<token>]` line (with the token there or on a `TOKEN:` line)."""

    game: str
    phase: str
    token: str | None


def approvals_in(mail: Any) -> list[Approval]:
    found = [Approval(b.game, b.phase, b.token) for b in mail.blocks
             if any(line.strip().upper() == "APPROVE" for line in b.lines)]
    for command in mail.commands:
        words = command.split()
        if len(words) >= 3 and words[0].upper() == "APPROVE":
            found.append(Approval(words[1], words[2], words[3] if len(words) > 3 else None))
    return found


def _stamp(path: Any) -> tuple[int, int] | None:
    """The settings file's modification time and size: a changed file is read again."""
    try:
        status = os.stat(path) if path else None
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size) if status else None


@functools.lru_cache(maxsize=8)
def _host_address(settings: Any, stamp: tuple[int, int] | None) -> str:
    """[forum] host_address, read once per version of the settings file (asked for every
    inbound mail, where parsing the file each time cost as much as judging the mail)."""
    return load_forum_settings(settings).host_address


def host_address(settings: Any) -> str:
    """The host's address ([forum] host_address), "" when none is set."""
    return _host_address(settings, _stamp(settings.source))


def host_mail(desk: Any, mail: Any) -> str | None:
    """Handle a mail from the host's address, or return None when it is not one.

    An approval (`approvals_in`: a line `APPROVE <game> <phase>` with the game's host token
    on it or on a `TOKEN:` line, or the draft's block with `APPROVE` un-commented) approves
    that draft (leak-checked: a draft that fails needs `pbp draft approve --force`). A
    missing or wrong token is refused, and wrong tokens count against the address like a
    player's (pbp.token_guard); anything else gets help."""
    moderator = desk.moderator
    host = host_address(moderator.settings)
    if not host or mail.sender != host:
        return None
    folder = moderator.folder
    games = folder.game_ids()
    approvals = approvals_in(mail)
    named = [a.game for a in approvals] + [b.game for b in mail.blocks]
    target = next((g for g in named if g in games), None) or (games[-1] if games else None)
    if target is None:
        return desk._record_without_game(mail, "host mail with no game to act on")
    game = load(moderator, target)
    book = DraftBook(game.file)
    outcome, reason, reply = "rejected", "host mail without an approval", None
    approval = next((a for a in approvals if a.game == target), None)
    with game.file.transaction():
        if approval is not None:
            # The phase as the host typed it; drafts are keyed by the exact phase id.
            phase = next((r["phase"] for r in book.all() if r["phase"].lower() == approval.phase.lower()),
                         approval.phase)
            guard = TokenGuard(game.file, mail.sender, moderator.clock().date(),
                               moderator.settings.wrong_tokens_per_sender_per_day)
            if guard.locked:
                reason = "approval refused unread: too many wrong host tokens today"
                reply = (f"Refused: {guard.limit} approvals with a wrong host token came from this address today, "
                         "so its approvals are refused unread until 00:00 UTC.")
            elif not approval.token:
                reason = "approval without the host token"
                reply = (f"Refused: your approval of {target} {approval.phase} has no host token. Put the "
                         f"token from the draft's mail on a line TOKEN: <token> under the APPROVE line, or "
                         f"after it: APPROVE {target} {approval.phase} <token>.")
            elif approval.token.strip() != book.host_token():
                guard.note_wrong()
                reason = "wrong host token"
                reply = (f"Refused: the TOKEN in your approval of {target} {approval.phase} is not this game's "
                         f"host token. Reply to the draft's own mail, which holds the right token.")
            else:
                try:
                    row = service.approve(game, phase)
                    outcome, reason = "processed", f"approved {phase}"
                    reply = f"Approved the post for {target} {row['phase']}; it will be published shortly."
                except UserError as error:
                    reason, reply = f"approval refused: {error}", f"Not approved: {error}"
            guard.save(game.file)
            if guard.newly_locked:
                tell_host_of_wrong_tokens(moderator, game, guard)
        else:
            phase = (book.unpublished() or [{"phase": game.record["phase_id"] or "over"}])[0]["phase"]
            reply = HOST_HELP + approval_form(target, phase, "<the host token from the draft's mail>")
        # The host's address is capped per day like every other: an autoresponder that
        # marks nothing still stops after the cap (docs/design.md: Hostile input).
        if reply and not mail.no_reply_reason and desk._may_reply(game, host):
            moderator.outbox.queue(game.file, phase=game.record["phase_id"] or "over", recipient=HOST,
                                   address=host, kind="host-reply",
                                   mail=RenderedMail(f"Re: {mail.subject}" if mail.subject else f"[{target}] pbp",
                                                     reply + "\n"),
                                   in_reply_to=mail.message_id, references=mail.references)
        row = desk._mail_row(mail, outcome, reason)
        game.file.mails.insert(row)
    desk._remember(desk._index(), row)
    return outcome


def tell_host_of_wrong_tokens(moderator: Any, game: Any, guard: TokenGuard) -> None:
    """Tell the host, once per address and day, that an address's blocks are refused for
    wrong tokens (call inside the game's transaction; `pbp status` lists it anyway): with
    `[forum] host_address` set, one mail goes to the host."""
    address = _host_address(moderator.settings, _stamp(moderator.settings.source))
    if not address:
        return
    body = (f"{guard.address} sent {guard.count} wrong tokens for game {game.id} on {guard.day} (UTC). Someone "
            "may be guessing a token, so that address's order blocks (or approvals) are refused unread until "
            "00:00 UTC. A player still gets their form and token by mailing FORM; "
            f"`pbp status {game.id}` shows this too.\n")
    moderator.outbox.queue(game.file, phase=game.record["phase_id"] or "over", recipient=HOST, address=address,
                           kind="wrong-tokens", mail=RenderedMail(f"[{game.id}] Wrong tokens from {guard.address}", body))


# How often `pbp run` reads each game's thread (one listing request per game).
WATCH_INTERVAL = 600.0


def timeline_of(game: Any) -> list[PhaseFacts]:
    """The thread watch's timeline of a game; a game with none yet (no resolution since it
    began) starts one with the game as it stands, from its open phase's start."""
    book = DraftBook(game.file)
    if not book.game_settings().get("timeline"):
        note_for_watch(game, _opened(game))
    return [PhaseFacts.from_json(entry) for entry in book.game_settings()["timeline"]]


def watch_threads(moderator: Any, thread_reader: Any, on_warning: Callable[[str], None] = lambda text: None,
                  every: float = 0.0, games: Sequence[str] | None = None) -> list[str]:
    """Read each game's Reddit thread; for each new comment by a player who was dead, or
    silenced, when they wrote it, warn the host (the returned lines, `on_warning`, the
    game's `warnings` for `pbp status`, and with `[forum] host_address` a mail).

    `games` limits the watch to those games. `every` > 0 skips a game whose thread was read
    less than that many seconds ago. A thread Reddit cannot give now is skipped with a
    note to `on_warning`."""
    forum = load_forum_settings(moderator.settings)
    now = moderator.clock().timestamp()
    texts = []
    for game_id in moderator.folder.game_ids() if games is None else games:
        game = load(moderator, game_id)
        book = DraftBook(game.file)
        settings = book.game_settings()
        if not settings.get("thread") or (every and now - settings.get("watched_at", 0.0) < every):
            continue
        try:
            comments = thread_reader.thread_comments(settings["thread"])
        except (TransientPublishError, PermanentPublishError) as error:
            on_warning(f"[{game_id}] thread watch: cannot read the thread now: {error}")
            continue
        with game.file.transaction():
            warnings = watch_thread(comments, game.record["roster"], timeline_of(game),
                                    seen=settings.get("watched", []))
            book.update_game_settings({"watched_at": now, "watched": sorted(
                {*settings.get("watched", []), *(c["id"] for c in comments)})})
            for warning in warnings:
                text = f"[{game_id}] {warning}"
                texts.append(text)
                on_warning(text)
                book.update_game_settings({"warnings": [*book.game_settings().get("warnings", []), text]})
                if forum.host_address:
                    moderator.outbox.queue(game.file, phase=game.record["phase_id"] or "over", recipient=HOST,
                                           address=forum.host_address, kind="thread-watch",
                                           mail=RenderedMail(f"[{game_id}] Thread watch: {warning.player} posted",
                                                             f"{warning}\nA host kill is `pbp modkill {game_id} {warning.player} <reason>`.\n"))
    return texts
