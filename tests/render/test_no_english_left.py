"""A whole demo game in German and in Spanish, of each ruleset, with its votes in the
thread and by mail, leaves no English in what pbp writes (docs/design.md: Languages — no
English left): every mail's subject and body, the words of its map.svg attachment, and
every thread post is read for the
distinctive words of the English sentences, a stop-list of words that never appear in
correct German or Spanish. What players wrote (the demo's scripted team talk, anonymous
messages, their thread posts) is theirs and left out; names of players and rooms,
game ids, order keywords in capitals and the channels' names (ids players write in a
message block, `BEGIN MESSAGE ww1 pack`) are not words of a sentence."""

from __future__ import annotations

import email.header
import re
from xml.etree import ElementTree
from mailbox import Maildir
from pathlib import Path
from typing import Any

import pytest

from engine.infiltration.players.terminals import MESSAGES
from pbp.demo import play_demo
from pbp.forum.publishing.post_renderer import PostRenderer

# Lower-case English words that are no German or Spanish word (case matters: `VOTE` is a
# keyword, `Phase` is German).
STOP_WORDS = (
    "the",
    "your",
    "you",
    "orders",
    "order",
    "deadline",
    "phase",
    "village",
    "faction",
    "wolves",
    "wolf",
    "night",
    "day",
    "vote",
    "votes",
    "player",
    "players",
    "room",
    "when",
    "with",
    "is",
    "and",
    "of",
    "to",
    "for",
    "not",
    "turn",
    "nobody",
    "none",
    "dead",
    "alive",
    "werewolf",
    "infiltration",
    "seen",
    "choices",
    "each",
    "this",
    "game",
    "reply",
    "The",
    "Your",
    "You",
    "Night",
    "Day",
    "Turn",
    "Orders",
    "Deadline",
    "Village",
    "Wolves",
)
STOP = re.compile(r"(?<![\w@./-])(" + "|".join(STOP_WORDS) + r")(?![\w@-])")
# Words that are not pbp's sentences: addresses, links, and what the demo's players wrote.
NOT_PBPS = (
    re.compile(r"\S+@\S+|https?://\S+"),
    re.compile(r"For [^\n]*?, I say [^\n]*?\. Agreed\?|Agreed: [^\n]*?\.|I would rather [^\n]*?\."),
    re.compile("|".join(re.escape(message) for message in MESSAGES)),
)


def pbps_words(text: str) -> str:
    """`text` without what pbp did not word (the demo's messages may be wrapped: their
    words are matched across line breaks)."""
    joined = re.sub(r"\s*\n\s*(?:#\s+)?", " ", text)
    for pattern in NOT_PBPS:
        joined = pattern.sub(" ", joined)
    return joined


def english_left(text: str) -> list[str]:
    """Each stop word found, with what surrounds it."""
    words = pbps_words(text)
    return [words[max(0, found.start() - 40) : found.end() + 40] for found in STOP.finditer(words)]


def mail_texts(data: Path) -> list[str]:
    texts = []
    for box in sorted((data / "mail").iterdir()):
        for message in Maildir(box, create=False):
            subject = str(
                email.header.make_header(email.header.decode_header(message["Subject"] or ""))
            )
            bodies = [
                part.get_payload(decode=True).decode("utf-8")
                for part in message.walk()
                if part.get_content_type() == "text/plain"
            ]
            texts.append(subject + "\n" + "\n".join(bodies + svg_words(message)))
    return texts


def svg_words(message: Any) -> list[str]:
    """The words of a mail's pictures (the facility map): the text of each SVG element."""
    return [
        "".join(element.itertext())
        for part in message.walk()
        if part.get_content_type() == "image/svg+xml"
        for element in ElementTree.fromstring(part.get_payload(decode=True)).iter()
        if element.tag.endswith("}text")
    ]


@pytest.fixture(
    scope="module",
    params=[(ruleset, code) for ruleset in ("werewolf", "infiltration") for code in ("de", "es")],
    ids=lambda pair: "-".join(pair),
)
def demo_words(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    """The mail and the posts of a whole demo game of the ruleset in the language."""
    ruleset, code = request.param
    posts: list[str] = []
    render = PostRenderer.render

    def recording(self: PostRenderer, facts: Any, dialect: Any, kind: str = "post") -> Any:
        draft = render(self, facts, dialect, kind)
        text = draft.text
        for span in sorted(
            draft.player_spans, key=lambda span: -span[0]
        ):  # a player's words are theirs
            text = text[: span[0]] + " " + text[span[1] :]
        posts.append(draft.title + "\n" + text)
        return draft

    data = tmp_path_factory.mktemp(f"{ruleset}-{code}") / "demo"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(PostRenderer, "render", recording)
        outcome = play_demo(ruleset, data=data, say=lambda line: None, votes="both", language=code)
    assert outcome.result
    return {"mail": mail_texts(data), "posts": posts}


def test_no_mail_of_a_translated_demo_holds_english(demo_words):
    assert len(demo_words["mail"]) > 50
    left = sorted({found for text in demo_words["mail"] for found in english_left(text)})
    assert not left, "English in the mail:\n" + "\n".join(left[:40])


def test_no_thread_post_of_a_translated_demo_holds_english(demo_words):
    assert demo_words["posts"]
    left = sorted({found for text in demo_words["posts"] for found in english_left(text)})
    assert not left, "English in the posts:\n" + "\n".join(left[:40])


def test_the_stop_list_finds_the_english_it_is_for():
    assert len(english_left("Deine Befehle für Night 1: the wolves' victim")) == 3
    assert not english_left(
        'Eine anonyme Nachricht: "I am Green. Vote\nwith me." Alice@players.invalid'
    )
    assert not english_left("BEGIN MESSAGE ww1 pack\nVOTE NO LYNCH\nPhase\nUm an pack zu schreiben")
