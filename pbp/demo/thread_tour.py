"""What `pbp demo --votes thread` shows of votes in the thread besides plain votes
(docs/design.md: Embedded default — the thread demo's tour): in the first phase that
takes the card's last public order (the one that decides: Werewolf's VOTE, Infiltration's
VOTE), the first player changes their vote in a later post, the second takes theirs back
with the take-back word and votes again, the third quotes the first one's old vote (a
quote is not the poster's vote), and the fourth posts a vote a minute after the deadline.
Each player's vote in the end is their scripted one, so the game plays as the mail demo
of the same seed; the demo prints what was posted and what pbp made of it."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core import OrderSpec
from pbp.game.stored import StoredGame

CHANGES, TAKES_BACK, QUOTES, LATE = range(4)


def plain_post(public: list[str]) -> str:
    """A scripted player's post of its public orders, bold, as forum players write them."""
    return "Here is where I stand.\n\n" + "\n".join(f"**{line.strip()}**" for line in public)


@dataclass
class ThreadTour:
    """The tour's state across the demo: its phase once chosen, the first player's old
    vote (for the quote), the late vote to post, and what to print."""

    phase: str = ""
    done: bool = False
    old_vote: tuple[str, str] = ("", "")  # (player, line)
    late: tuple[str, str] = ("", "")  # (player, line)
    told: list[str] = field(default_factory=list)

    def posts(self, game: StoredGame, player: str, public: list[str]) -> list[str]:
        """The posts `player` makes for its public orders `public`, in order."""
        role, line, other = self._role(game, player, public)
        if role is None or other is None:
            return [plain_post(public)]
        keyword, _, choice = line.partition(" ")
        if role == CHANGES:
            self.old_vote = (player, f"{keyword} {other}")
            self.told.append(
                f"{player} posts {keyword} {other}, then {line} in a later post: the later counts."
            )
            return [plain_post([f"{keyword} {other}"]), f"Changed my mind.\n\n**{line}**"]
        if role == TAKES_BACK:
            back = {order: word for word, order in game.rules.card.take_back_words}.get(keyword)
            if back is None:
                return [plain_post(public)]
            self.told.append(
                f"{player} posts {line}, takes it back with {back} and posts it again."
            )
            return [
                plain_post(public),
                f"**{back}**\n\nLet me think again.",
                f"Back to it.\n\n**{line}**",
            ]
        if role == QUOTES and self.old_vote[1]:
            who, old = self.old_vote
            self.told.append(
                f'{player} quotes {who}\'s old "{old}" before voting: a quote is not a vote.'
            )
            return [f"> **{old}**\n\n{who}, I would not.", plain_post(public)]
        if role == LATE:
            self.late = (player, f"{keyword} {other}")
        return [plain_post(public)]

    def late_post(self) -> tuple[str, str] | None:
        """(player, text) of the vote to post a minute after the deadline, once."""
        if not self.late[0] or self.done:
            return None
        self.done = True
        player, line = self.late
        self.told.append(f"{player} posts {line} a minute after the deadline.")
        return player, f"One more thing.\n\n**{line}**"

    def _role(
        self, game: StoredGame, player: str, public: list[str]
    ) -> tuple[int | None, str, str | None]:
        """Which part of the tour `player` plays now (None: none), its public line of the
        deciding order, and another choice it may vote for."""
        phase, card = game.phase, game.rules.card
        deciding = card.public_orders[-1] if card.public_orders else ""
        line = next((line.strip() for line in public if line.split()[:1] == [deciding]), "")
        if phase is None or not line or self.done or self.phase not in ("", phase.id):
            return None, line, None
        self.phase = phase.id
        order = [name for name in game.roster.names if name in phase.awaited]
        role = order.index(player) if player in order and order.index(player) <= LATE else None
        spec = next(
            (spec for spec in phase.grammar.get(player, ()) if spec.keyword == deciding), None
        )
        return role, line, _other_choice(spec, line.partition(" ")[2], player)


def _other_choice(spec: OrderSpec | None, choice: str, player: str) -> str | None:
    if spec is None:
        return None
    return next(
        (
            option
            for option in spec.choices
            if option.upper() not in (choice.upper(), player.upper())
        ),
        None,
    )
