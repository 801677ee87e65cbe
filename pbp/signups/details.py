"""What a sign-up may say about the player besides the name (docs/design.md: Sign-ups and
spectators): a time zone, in which every deadline they are mailed is shown, a forum account,
which the thread's posts show beside the name and the thread watch reads votes from, and the
language their mail is written in (docs/design.md: Each reader's language).

They come on the JOIN line (`JOIN ww3 Alice TZ=Europe/Berlin FORUM=alice_k LANG=de`) or on lines
of their own right after it (`TZ: Europe/Berlin`, `FORUM: alice k`, `LANG: de`). `find_signup`
folds them into one JOIN argument (`pbp.mail.signup_words.join_argument`); `JoinDetails.parse`
reads it back. A forum name may hold spaces, so each value runs to the next key or the end of
its line.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from engine import roster_wordings
from engine.errors import Wording
from pbp.mail.limits import quoted
from pbp.storage.signup_record import PendingRequest, SignupRecord
from pbp.render.languages import SOURCE_LANGUAGE, language_problem, languages
from pbp.timezones import zone_problem

_KEY = re.compile(r"(?:^|\s)(TZ|TIMEZONE|FORUM|LANG|LANGUAGE)\s*[=:]\s*", re.IGNORECASE)
# Each key as JoinDetails.parse files it.
_KEY_NAMES = {"TZ": "TZ", "TIMEZONE": "TZ", "FORUM": "FORUM", "LANG": "LANG", "LANGUAGE": "LANG"}
MAX_FORUM_CHARS = 30
_FORUM_MARKS = frozenset(" _-.")


@dataclass(frozen=True)
class JoinDetails:
    """A JOIN's name, time zone ("" for none: deadlines in UTC), forum account and language
    ("" for none: English)."""

    name: str
    timezone: str = ""
    forum_name: str = ""
    language: str = ""

    @classmethod
    def parse(cls, argument: str) -> JoinDetails:
        parts = _KEY.split(
            unicodedata.normalize("NFC", argument)
        )  # name, key, value, key, value, …
        values = {
            _KEY_NAMES[key.upper()]: value.strip() for key, value in zip(parts[1::2], parts[2::2])
        }
        return cls(
            parts[0].strip(),
            values.get("TZ", ""),
            re.sub(r"\s+", " ", values.get("FORUM", "")),
            values.get("LANG", "").lower(),
        )

    @classmethod
    def of_request(cls, request: PendingRequest) -> JoinDetails:
        """The details a JOIN request kept until its code came back."""
        return cls(request.name, request.timezone, request.forum_name, request.language)

    @property
    def reads(self) -> str:
        """The language the player reads: the one given, else English."""
        return self.language or SOURCE_LANGUAGE

    def problems(self, game_id: str, forum_names_taken: Iterable[str]) -> list[Wording]:
        """Why the time zone, the language or the forum name cannot be used, one sentence
        each saying how to fix it, worded in the reader's language (docs/design.md:
        Refusals in every language); the name is checked by the roster rules."""
        found = []
        if self.timezone and zone_problem(self.timezone):
            found.append(
                Wording(
                    "The time zone %(zone)r is unknown: write an IANA name such as"
                    " Europe/Berlin, America/New_York or UTC, e.g. JOIN %(game_id)s %(name)s"
                    " TZ=Europe/Berlin.",
                    {"zone": quoted(self.timezone, 40), "game_id": game_id, "name": self.name},
                )
            )
        if self.language and language_problem(self.language):
            found.append(
                Wording(
                    "The language %(language)r is not one pbp writes in: write one of"
                    " %(languages)s, e.g. JOIN %(game_id)s %(name)s LANG=%(example)s.",
                    {
                        "language": quoted(self.language, 20),
                        "languages": ", ".join(languages()),
                        "game_id": game_id,
                        "name": self.name,
                        "example": languages()[-1],
                    },
                )
            )
        if self.forum_name:
            problem = forum_name_problem(self.forum_name)
            if problem:
                found.append(problem)
            elif self.forum_name.casefold() in {taken.casefold() for taken in forum_names_taken}:
                found.append(
                    Wording(
                        "The forum name %(forum_name)r is signed up for %(game_id)s already;"
                        " give your own forum account after FORUM=.",
                        {"forum_name": self.forum_name, "game_id": game_id},
                    )
                )
        return found


def forum_name_problem(forum_name: str) -> Wording | None:
    """Why `forum_name` cannot name a forum account in the thread's posts, or None."""
    allowed = all(unicodedata.category(c)[0] in "LN" or c in _FORUM_MARKS for c in forum_name)
    if not allowed or len(forum_name) > MAX_FORUM_CHARS or not forum_name[0].isalnum():
        return Wording(
            "The forum name %(forum_name)r cannot be used: write your forum account as"
            " 1-%(most)s letters, digits, spaces, '_', '-' or '.', starting with a letter"
            " or digit, e.g. FORUM=alice_k.",
            {"forum_name": quoted(forum_name, 40), "most": MAX_FORUM_CHARS},
        )
    return None


def join_problems(
    record: SignupRecord, details: JoinDetails
) -> tuple[list[Wording], list[Wording]]:
    """A sign-up's problems against the game's sign-ups and NPCs: the name's (by the roster
    rules), and the time zone's, language's and forum name's, each a Wording."""
    entries = record.entries
    npcs = [npc["name"] for npc in record.npcs]
    taken = [e.forum_name for e in entries if e.forum_name]
    return (
        roster_wordings([*npcs, *(e.name for e in entries), details.name]),
        details.problems(record.id, taken),
    )
