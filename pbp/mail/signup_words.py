"""The sign-up commands in a mail (docs/design.md: Sign-ups and spectators).

`JOIN <game> <name>`, `LEAVE <game>`, `WATCH <game>` and `UNWATCH <game>` are read from the
first unquoted line the sender wrote that starts with one of them (or the subject when the body
has none): a forum player greets first ("Hi! count me in"), and a JOIN under the greeting is
still theirs. Quoted lines are someone else's words and never count. `CONFIRM <game> <code>` is
read from any line, quoted ones included, and from the subject: replying to the confirmation
mail, which quotes it, is how a sender confirms. The code alone proves the mail reached that
address, so where it stands in the reply does not matter."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbp.mail.command_names import ENGLISH_COMMAND, names_of
from pbp.mail.quoting import QuotedLine, split_quote

ACTIONS = ("JOIN", "LEAVE", "WATCH", "UNWATCH")
CONFIRM = "CONFIRM"
_ID = r"[A-Za-z][A-Za-z0-9_-]{0,19}"
_ACTION_WORDS = "|".join(
    name for action in ACTIONS for name in names_of(action)
)  # JOIN, MITSPIELEN, UNIRSE, …
_ACTION = re.compile(rf"^({_ACTION_WORDS})\s+({_ID})(?:\s+(\S.*?))?\s*$", re.IGNORECASE)
CODE_LENGTH = 10  # a confirmation code's length (pbp.signups.codes makes them)
DETAIL_LINE = re.compile(
    r"^(TZ|TIMEZONE|FORUM|LANG|LANGUAGE)\s*[=:]\s*\S", re.IGNORECASE
)  # a JOIN's follow-up line
MAX_ARGUMENT_CHARS = 200  # what a JOIN may carry; a longer value is refused by the rules anyway
_WATCH_LANGUAGE = re.compile(r"(?:^|\s)LANG(?:UAGE)?\s*[=:]\s*(\S+)", re.IGNORECASE)
_CODE = rf"[a-z0-9]{{{CODE_LENGTH}}}"
_CONFIRM = re.compile(rf"(?:^|[\s(])CONFIRM\s+({_ID})\s+({_CODE})(?![A-Za-z0-9_-])", re.IGNORECASE)
_SUBJECT_PREFIX = re.compile(r"^\s*((re|aw|sv|fwd?|tr|wg)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)


@dataclass(frozen=True)
class SignupCommand:
    """One sign-up command: `word` is JOIN, LEAVE, WATCH, UNWATCH or CONFIRM; `argument`
    the name (JOIN) or the code (CONFIRM), else ""."""

    word: str
    game: str
    argument: str = ""

    def __str__(self) -> str:
        return " ".join(part for part in (self.word, self.game, self.argument) if part)


def find_signup(body: str, subject: str) -> str | None:
    """The mail's sign-up command as one line (`parse_signup` reads it back), or None."""
    lines = [split_quote(line) for line in body.split("\n")]
    for text in (subject, *(line.content for line in lines)):
        match = _CONFIRM.search(text)
        if match:
            return str(SignupCommand(CONFIRM, match.group(1), match.group(2).lower()))
    written = [index for index, line in enumerate(lines) if line.content]
    at = next(
        (
            index
            for index in written
            if lines[index].depth == 0 and _ACTION.match(lines[index].content)
        ),
        None,
    )
    if at is not None:
        text = lines[at].content
    elif not written:
        text = _SUBJECT_PREFIX.sub("", subject).strip()
    else:
        return None
    match = _ACTION.match(text)
    if not match:
        return None
    word, game, rest = match.group(1).upper(), match.group(2), (match.group(3) or "")
    word = ENGLISH_COMMAND.get(word, word)  # the words of every language pbp writes
    if word == "JOIN":
        follow_up = _detail_lines(lines[at + 1 :]) if at is not None else []
        return str(SignupCommand(word, game, join_argument(rest, follow_up)))
    language = _WATCH_LANGUAGE.search(rest) if word == "WATCH" else None  # `WATCH ww3 LANG=de`
    return str(SignupCommand(word, game, f"LANG={language.group(1)[:12]}" if language else ""))


def _detail_lines(lines: list[QuotedLine]) -> list[str]:
    """The sender's own `TZ: …`, `FORUM: …` and `LANG: …` lines right after the JOIN line (blank
    lines between them allowed), up to the first other line."""
    details: list[str] = []
    for line in lines:
        if not line.content:
            continue
        if line.depth or not DETAIL_LINE.match(line.content) or len(details) == 3:
            break
        details.append(line.content)
    return details


def parse_signup(command: str) -> SignupCommand | None:
    """The command `find_signup` found (an InboundMail's command line), or None for any other."""
    words = command.split(maxsplit=2)
    if len(words) < 2 or words[0] not in (*ACTIONS, CONFIRM):
        return None
    return SignupCommand(words[0], words[1], words[2] if len(words) > 2 else "")


def join_argument(rest: str, follow_up: list[str]) -> str:
    """The JOIN line's text after the game, with the detail lines that follow it (`TZ:
    Europe/Berlin`), as one argument for `pbp.signups.details.JoinDetails.parse`, bounded in
    length."""
    return " ".join([rest.strip(), *(line.strip() for line in follow_up)])[:MAX_ARGUMENT_CHARS]
