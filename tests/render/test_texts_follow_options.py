"""HELP, the welcome and the opening post state the game's own options (docs/design.md:
Order mail format — HELP; the rules' option tables in docs/rules/*.md): each game is made
with one option at one of its values, and every sentence that states that option's rule
says what this value does and never what another value would do. Texts are compared with
their line breaks and runs of spaces made single spaces (mail is wrapped at 72)."""

from __future__ import annotations

import pytest

from pbp.desk import Desk
from pbp.game.create import create_game
from pbp.game.record_parts import RosterPlayer
from pbp.game.stored import load
from pbp.ports import InboundMail
from pbp.storage.drafts import OPENING, DraftBook

NAMES = ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta", "Hiro")
ROSTER = [RosterPlayer(name, f"{name.lower()}@example.org") for name in NAMES]
WEREWOLF_ROLES = "werewolf,werewolf,bodyguard,wench,seer,villager,villager,villager"

# ruleset -> option -> value -> {text: the sentence (or sentences) it must hold}. Texts are
# `help`, `opening`, and `welcome:<role or team>`, the welcome of a player of that role
# (Werewolf) or team (Infiltration).
STATED = {
    "werewolf": {
        "reveal_roles": {
            "off": {
                "help": "A dead player's role is not revealed until the game ends.",
                "opening": "Dead players' roles are kept secret until the game ends.",
            },
            "on": {
                "help": "A dead player's role is revealed when they die, at dawn or at the lynch.",
                "opening": "Dead players' roles are shown when they die.",
            },
        },
        "first_night": {
            "quiet": {
                "help": "N0 a quiet night: only a Romantic, if the game has one, acts",
                "opening": "Night 0 is quiet: only a Romantic, if the game has one, picks a lover.",
            },
            "full": {
                "help": "N0 a whole night, as every night: the wolves KILL",
                "opening": "Night 0 is a whole night: the wolves kill and every role acts.",
            },
        },
        "wolf_tie": {
            "no-kill": {
                "help": "The wolves' target is the player most of them name; a tie kills nobody.",
                "welcome:werewolf": "(the most-named target; a tie kills nobody)",
            },
            "random": {
                "help": "name; a tie is drawn at random among the tied.",
                "welcome:werewolf": "(the most-named target; a tie is drawn at random)",
            },
        },
        "bodyguard_self": {
            "forbidden": {
                "help": "the Bodyguard may not protect himself",
                "welcome:bodyguard": "PROTECT one other player from the werewolves",
            },
            "allowed": {
                "help": "the Bodyguard may protect himself",
                "welcome:bodyguard": "PROTECT one player (yourself allowed) from the werewolves",
            },
        },
        "bodyguard_repeat": {
            "allowed": {
                "help": "and may protect the same player two nights running",
                "welcome:bodyguard": "the same player again the next night is allowed.",
            },
            "forbidden": {
                "help": "and may not protect the same player two nights running",
                "welcome:bodyguard": "never the same player two nights running.",
            },
        },
        "wench_missing": {
            "random": {
                "help": "A Wench who sends no VISIT visits a random living player.",
                "welcome:wench": "If you send no VISIT, you visit a random living player.",
            },
            "none": {
                "help": "A Wench who sends no VISIT visits nobody.",
                "welcome:wench": "If you send no VISIT, you visit nobody.",
            },
        },
        "modkill_loses": {
            "on": {"help": "A player the host removes for breaking the rules never wins."},
            "off": {
                "help": "A player the host removes for breaking the rules wins with their side."
            },
        },
    },
    "infiltration": {
        "default_class": {
            value: {
                "help": f"A Green who does not choose is a {value.capitalize()}.",
                "welcome:green": f"If you send no CLASS order you will be a {value.capitalize()}.",
                "opening": f"a Green who does not choose is a {value.capitalize()}.",
            }
            for value in ("warrior", "hacker", "sneaker")
        },
        "alert_scope": {
            "facility": {"help": "the Alert holds: no terminals anywhere this turn"},
            "floor": {"help": "the Alert holds: no terminals on that floor this turn"},
        },
        "tie": {
            "no-lynch": {"help": "Votes are public; a tied vote lynches nobody."},
            "random": {
                "help": "Votes are public; a tied vote lynches one of the tied, drawn at random."
            },
        },
        "phantom_votes": {
            "off": {"help": "use nothing, vote for nobody and attack nobody."},
            "on": {"help": "use nothing, vote for yourself and attack nobody."},
        },
        "turn_limit": {
            "30": {"help": "If turn 30 ends with no winner, the game is a draw."},
            "12": {"help": "If turn 12 ends with no winner, the game is a draw."},
        },
        "reds": {
            "0": {"help": "There is one Red for every five players (at least one)."},
            "2": {"help": "This game has 2 Reds."},
        },
    },
}
WATCHED_CHANNELS = (
    "the channel's living members get what you write there, and those who watch the game "
    "read it after the phase"
)
for ruleset in STATED:  # the moderator's option, stated alike in every ruleset's HELP
    STATED[ruleset]["spectators"] = {
        "off": {
            "help": "Nobody watches: the dead get no more mail, and what a team channel says "
            "reaches only its living members."
        },
        "dead": {
            "help": (
                "The dead keep their eyes open: after each phase they get the host's view of "
                "it, every role and the team channels' messages included.",
                WATCHED_CHANNELS,
            )
        },
        "all": {
            "help": ("and so does anyone who asked to watch the game (WATCH g1).", WATCHED_CHANNELS)
        },
    }

CASES = [
    (ruleset, option, value)
    for ruleset, options in STATED.items()
    for option, values in options.items()
    for value in values
]


def flat(text: str) -> str:
    return " ".join(text.split())


def texts(moderator, ruleset: str, option: str, value: str) -> dict[str, str]:
    """The texts of a new game made with `option=value`: HELP as a player gets it by mail,
    the opening post, and each player's welcome under `welcome:<role or team>`."""
    options = {option: value, **({"roles": WEREWOLF_ROLES} if ruleset == "werewolf" else {})}
    create_game(moderator, ruleset, ROSTER, seed="s1", options=options, game_id="g1")
    Desk(moderator).receive(
        InboundMail(
            key="k1",
            sha256="1" * 64,
            sender="alice@example.org",
            message_id="<m1@example.org>",
            subject="help",
            commands=("HELP g1",),
        )
    )
    game = load(moderator, "g1")
    rows = game.file.outbox.all()
    found = {
        "opening": DraftBook(game.file).get(OPENING).text,
        "help": next(row["body"] for row in rows if row["kind"] == "help"),
    }
    for row in rows:
        if row["kind"] == "welcome":
            status = game.status(row["recipient"])
            found.setdefault(f"welcome:{status.label}", row["body"])
    return {key: flat(text) for key, text in found.items()}


def sentences(stated: dict[str, str | tuple[str, ...]]) -> list[tuple[str, str]]:
    return [
        (where, flat(sentence))
        for where, said in stated.items()
        for sentence in ((said,) if isinstance(said, str) else said)
    ]


@pytest.mark.parametrize("ruleset,option,value", CASES)
def test_every_stated_rule_is_this_games_option(moderator, ruleset, option, value):
    shown = texts(moderator, ruleset, option, value)
    stated = sentences(STATED[ruleset][option][value])
    for where, sentence in stated:
        assert sentence in shown[where], (where, sentence)
    for other, said in STATED[ruleset][option].items():
        for where, sentence in sentences(said):
            if other != value and (where, sentence) not in stated:
                assert sentence not in shown[where], (where, other, sentence)


# option `votes` -> the sentence each public text holds about where votes go (docs/design.md:
# Public posts — votes in the thread): the opening post, the post that opens a day, a
# running count and the sign-up announcement. A player who follows the thread is never
# told to mail a vote the game only takes from the thread, and the other way round.
THREAD_SENTENCE = "on a line of its own in this thread"
VOTES_STATED = {
    "mail": {
        "opening": "Your orders go by mail: reply to pbp's mail with the order block filled in",
        "post": "mail NOMINATE and a living player. The two most nominated go to trial.",
        "tally": "orders are due by",
        "announcement": "A game of Werewolf played by mail",
    },
    "thread": {
        "opening": (
            "Post NOMINATE or VOTE and your choice on a line of its own in this thread "
            "(UNNOMINATE or UNVOTE takes it back); every other order goes by mail:"
        ),
        "post": (
            "post NOMINATE and a living player on a line of its own in this thread "
            "(UNNOMINATE takes it back). The two most nominated go to trial."
        ),
        "tally": (
            "Post NOMINATE and your choice on a line of its own in this thread "
            "(UNNOMINATE takes it back), before Sat 5 Jan 2030, 12:00 UTC."
        ),
        "announcement": (
            "Votes are posted in the game's thread and count only from the forum account "
            "you give as FORUM"
        ),
    },
    "both": {
        "opening": (
            "Post NOMINATE or VOTE and your choice on a line of its own in this thread "
            "(UNNOMINATE or UNVOTE takes it back), or mail it; every other order goes by mail:"
        ),
        "post": (
            "post NOMINATE and a living player on a line of its own in this thread "
            "(UNNOMINATE takes it back), or mail it."
        ),
        "tally": (
            "Post NOMINATE and your choice on a line of its own in this thread "
            "(UNNOMINATE takes it back), or mail it, before Sat 5 Jan 2030, 12:00 UTC."
        ),
        "announcement": (
            "Votes are posted in the game's thread, from the forum account you give as "
            "FORUM, or mailed"
        ),
    },
}


def public_texts(moderator, clock, votes: str) -> dict[str, str]:
    """The opening post, Night 0's post (which opens Day 1's nominations), a running count
    of those nominations, and the announcement of a game opened for sign-ups, each made
    with `votes=<votes>`."""
    from pbp.forum.publishing import drafting
    from pbp.forum.config import load_forum_settings
    from pbp.forum.publishing.post_renderer import post_renderer
    from pbp.game.resolution import resolve_due
    from pbp.signups.announcement import announcement
    from pbp.signups.opening import open_for_signups

    options = {"votes": votes, "roles": WEREWOLF_ROLES}
    create_game(moderator, "werewolf", ROSTER, seed="s1", options=options, game_id="g1")
    clock.advance(days=3)
    resolve_due(moderator)
    game = load(moderator, "g1")
    with game.file.transaction():
        tally = drafting.draft_tally(
            post_renderer(moderator.renderer),
            load_forum_settings(moderator.settings),
            game,
            clock(),
        )
    book = DraftBook(load(moderator, "g1").file)
    signups = open_for_signups(
        moderator, "ww2", "werewolf", "8..9", "3d", {"votes": votes}, None, None, [], ""
    )
    found = {
        "opening": book.get(OPENING).text,
        "post": book.get("N0").text,
        "tally": tally.text,
        "announcement": announcement(moderator, signups),
    }
    return {key: flat(text.replace("\\", "")) for key, text in found.items()}


@pytest.mark.parametrize("votes", VOTES_STATED)
def test_every_public_text_says_where_this_games_votes_go(moderator, clock, votes):
    shown = public_texts(moderator, clock, votes)
    for where, sentence in VOTES_STATED[votes].items():
        assert flat(sentence) in shown[where], (where, sentence, shown[where])
    for other, said in VOTES_STATED.items():
        for where, sentence in said.items():
            if other != votes and sentence != VOTES_STATED[votes][where]:
                assert flat(sentence) not in shown[where], (where, other, sentence)
    if votes == "mail":
        assert THREAD_SENTENCE not in " ".join(shown.values())
    else:
        assert "mail NOMINATE" not in " ".join(shown.values())
        assert "LINK" in shown["opening"]
