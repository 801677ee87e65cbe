"""Who wrote a post (docs/design.md: Public posts — votes in the thread). A forum account
counts as a player only through a name the host wrote in the roster (`forum_name`) or one
the player confirmed: pbp mails each player without a roster name a one-time code
(pbp.signups.codes, as sign-ups are confirmed), and a post `LINK <code>` in the game's
thread ties its author's account to that player from the post on. Claiming a name in a
post proves nothing, so nobody can vote as someone else.

- Account names are compared as the forums compare them, NFC then lower case (Reddit
  and Discourse names are unique that way; `casefold` would join `hugo_ſk` to
  `hugo_sk`); a Discourse display name is never read, only the account (`username`).
- A code is good once and only for its player as played now: a substitute gets a new one,
  and a link made by the player before them no longer counts.
- An account the host wrote for one player, or linked to one, cannot link to another.
- A code counts only from the post, or the revision of a post, in which it first
  appeared (an edit that adds it counts from the edit's time, never from the post's
  creation), and the codes of one read are taken in the order they appeared; so a thief
  who copies the owner's code into an older post of their own gains nothing.
- A code posted by two accounts in one read links neither: it is burnt, the player gets
  a new one by mail, and the host is told who posted it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from pbp.forum.thread.posts import ThreadPost, account_key
from pbp.forum.thread.thread_mail import player_note, tell_player
from pbp.forum.thread.vote_lines import OrderLine
from pbp.game.stored import StoredGame
from pbp.moderator import Moderator
from pbp.render.verdicts import Note
from pbp.signups.codes import new_code
from pbp.storage.drafts import DraftBook

LINK = "LINK"
LINKS_KEY = "forum_links"  # game forum settings: character -> {account, played_by, since}
CODES_KEY = "link_codes"  # character -> {code, played_by}
NEVER = float("-inf")


def account(name: str) -> str:
    return account_key(name)


@dataclass
class Identities:
    """Accounts and the players they stand for: (from when, player) for each account."""

    accounts: dict[str, list[tuple[float, str]]] = field(default_factory=dict)

    def player_at(self, name: str, moment: float) -> str | None:
        """The player `name`'s account stood for at `moment`, or None."""
        found = None
        for since, player in self.accounts.get(account(name), ()):
            if since <= moment:
                found = player
        return found

    def add(self, name: str, since: float, player: str) -> None:
        self.accounts.setdefault(account(name), []).append((since, player))


def _played_by(game: StoredGame, name: str) -> str:
    entry = game.roster.by_name(name)
    return entry.played_by if entry else ""


def identities(game: StoredGame) -> Identities:
    """The roster's forum names (from the start) and the links still valid (from their post)."""
    found = Identities()
    for entry in game.roster:
        if entry.forum_name:
            found.add(entry.forum_name, NEVER, entry.name)
    for player, link in DraftBook(game.file).game_settings().get(LINKS_KEY, {}).items():
        linked = game.roster.by_name(player)
        if linked and not linked.forum_name and link.get("played_by", "") == linked.played_by:
            found.add(link["account"], float(link["since"]), player)
    return found


@dataclass(frozen=True)
class LinkClaim:
    """A `LINK <code>` line as read: who posted it, and when it first appeared."""

    author: str
    code: str
    moment: float


def link_claims(post: ThreadPost, first_read: bool, lines: Sequence[OrderLine]) -> list[LinkClaim]:
    """The LINK lines of a post's revision as claims dated when the revision's words first
    appeared: the post's creation for a post never edited, else the edit's time (none when
    the forum gives no time), since what an edit added cannot be dated earlier."""
    moment = post.created if first_read and post.edited is None else post.edited
    if moment is None:
        return []
    return [
        LinkClaim(post.author, line.text.split()[1], moment)
        for line in lines
        if line.keyword == LINK and len(line.text.split()) > 1
    ]


def take_links(
    moderator: Moderator, game: StoredGame, claims: list[LinkClaim], known: Identities
) -> list[str]:
    """Take the codes of one read in the order they appeared (call inside the game's
    transaction); a live code posted by two accounts is burnt and its player mailed a new
    one (see the module's docstring). Returns the notes for the host."""
    by_code: dict[str, list[LinkClaim]] = {}
    for claim in claims:
        by_code.setdefault(claim.code.strip().lower(), []).append(claim)
    notes = []
    for code, posted in by_code.items():
        if len({account(claim.author) for claim in posted}) > 1:
            player = _burn(game, code)
            if player is not None:
                accounts = " and ".join(sorted({claim.author for claim in posted}))
                notes.append(
                    f"{player}'s LINK code was posted by {accounts} in one read; it links neither, "
                    f"and {player} is mailed a new code."
                )
    if notes:
        mail_link_codes(moderator, game)
    taken = [
        claim
        for claim in claims
        if len({account(c.author) for c in by_code[claim.code.strip().lower()]}) == 1
    ]
    for claim in sorted(taken, key=lambda claim: claim.moment):
        take_link(game, claim.author, claim.code, claim.moment, known)
    return notes


def _code_owner(game: StoredGame, code: str) -> str | None:
    codes: dict[str, Any] = DraftBook(game.file).game_settings().get(CODES_KEY, {})
    return next(
        (
            name
            for name, given in codes.items()
            if given["code"] == code.strip().lower()
            and given.get("played_by", "") == _played_by(game, name)
        ),
        None,
    )


def _burn(game: StoredGame, code: str) -> str | None:
    """Forget the live code `code` (so the next read mails its player a new one); returns
    its player, or None when it is nobody's live code (wrong, or used already)."""
    player = _code_owner(game, code)
    book = DraftBook(game.file)
    link = book.game_settings().get(LINKS_KEY, {}).get(player or "")
    if player is None or (link and link.get("played_by", "") == _played_by(game, player)):
        return None
    codes = dict(book.game_settings().get(CODES_KEY, {}))
    codes.pop(player)
    book.update_game_settings({CODES_KEY: codes})
    return player


def take_link(
    game: StoredGame, author: str, code: str, moment: float, known: Identities
) -> str | None:
    """Tie `author`'s account to the player whose code `code` is, from `moment` on (call
    inside the game's transaction). Returns the player, or None when the code is nobody's
    (wrong, used, or for a player the roster already names) or the account already stands
    for someone."""
    book = DraftBook(game.file)
    player = _code_owner(game, code)
    links = dict(book.game_settings().get(LINKS_KEY, {}))
    entry = game.roster.by_name(player) if player else None
    if entry is None or entry.forum_name or known.accounts.get(account(author)):
        return None
    link = links.get(entry.name)
    if link and link.get("played_by", "") == entry.played_by:
        return None  # linked already: the code was good once
    links[entry.name] = {"account": author, "played_by": entry.played_by, "since": moment}
    book.update_game_settings({LINKS_KEY: links})
    known.add(author, moment, entry.name)
    return entry.name


def forum_accounts(game: StoredGame) -> dict[str, str]:
    """Each player's forum account as posts show it beside the name: the roster's, else
    the one the player confirmed by LINK."""
    links = DraftBook(game.file).game_settings().get(LINKS_KEY, {})
    accounts = {}
    for entry in game.roster:
        link = links.get(entry.name)
        if entry.forum_name:
            accounts[entry.name] = entry.forum_name
        elif link and link.get("played_by", "") == entry.played_by:
            accounts[entry.name] = str(link["account"])
    return accounts


def confirm_links(moderator: Moderator, game: StoredGame) -> list[str]:
    """Mail each player whose LINK post tied an account to them that it did, once per link
    (call inside the game's transaction, after a read). Returns their names."""
    book = DraftBook(game.file)
    links = dict(book.game_settings().get(LINKS_KEY, {}))
    told = []
    for name, link in links.items():
        entry = game.roster.by_name(name)
        if link.get("told") or entry is None or link.get("played_by", "") != entry.played_by:
            continue
        tell_player(
            moderator,
            game,
            name,
            "forum-linked",
            Note(
                "forum_linked",
                game_id=game.id,
                account=link["account"],
                name=name,
                thread=game.thread_address,
            ),
        )
        links[name] = {**link, "told": True}
        told.append(name)
    if told:
        book.update_game_settings({LINKS_KEY: links})
    return told


def linked_accounts(game: StoredGame) -> dict[str, str]:
    """Each player's forum account for `pbp show`, a link saying it was confirmed by LINK."""
    return {
        name: (
            account
            if (entry := game.roster.by_name(name)) and entry.forum_name
            else f"{account} (confirmed by LINK)"
        )
        for name, account in forum_accounts(game).items()
    }


def mail_link_codes(moderator: Moderator, game: StoredGame) -> list[str]:
    """Mail a code to every player the thread cannot know yet: no roster forum name, no
    valid link, no code sent to them as they play now (call inside the game's transaction;
    the cycle calls it for games that take votes from the thread). Returns their names."""
    book = DraftBook(game.file)
    codes = dict(book.game_settings().get(CODES_KEY, {}))
    links = book.game_settings().get(LINKS_KEY, {})
    dead = game.dead()
    sent = []
    for entry in game.roster:
        given, link = codes.get(entry.name), links.get(entry.name)
        if (
            entry.forum_name
            or entry.name in dead
            or (link and link.get("played_by", "") == entry.played_by)
        ):
            continue
        if given and given.get("played_by", "") == entry.played_by:
            continue
        code = new_code()
        codes[entry.name] = {"code": code, "played_by": entry.played_by}
        moderator.outbox.queue(
            game.file,
            phase=game.filed_phase,
            recipient=entry.name,
            address=entry.email,
            kind="forum-link",
            mail=player_note(
                moderator,
                game,
                Note("forum_link", game_id=game.id, code=code, thread=game.thread_address),
                entry.name,
            ),
        )
        sent.append(entry.name)
    if sent:
        book.update_game_settings({CODES_KEY: codes})
    return sent
