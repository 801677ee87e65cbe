"""The sign-up commands in a mail (docs/design.md: Sign-ups; The dead and spectators).

`JOIN <game> <name>`, `LEAVE <game>`, `WATCH <game>` and `UNWATCH <game>` are read from
the first unquoted line the sender wrote (or the subject when the body has none), like
HELP and FORM. `CONFIRM <game> <code>` is read from any line, quoted ones included, and
from the subject: replying to the confirmation mail, which quotes it, is how a sender
confirms. The code alone proves the mail reached that address, so where it stands in the
reply does not matter."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pbp.mail.quoting import split_quote

ACTIONS = ("JOIN", "LEAVE", "WATCH", "UNWATCH")
CONFIRM = "CONFIRM"
_ID = r"[A-Za-z][A-Za-z0-9_-]{0,19}"
_ACTION = re.compile(rf"^(JOIN|LEAVE|WATCH|UNWATCH)\s+({_ID})(?:\s+(\S.*?))?\s*$", re.IGNORECASE)
CODE_LENGTH = 10  # a confirmation code's length (pbp.signups.codes makes them)
_CODE = rf"[a-z0-9]{{{CODE_LENGTH}}}"
_CONFIRM = re.compile(rf"(?:^|[\s(])CONFIRM\s+({_ID})\s+({_CODE})(?![A-Za-z0-9_-])", re.IGNORECASE)
_SUBJECT_PREFIX = re.compile(r"^\s*((re|aw|sv|fwd?|tr|wg)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)
MAX_NAME_CHARS = 40  # what a JOIN line may carry as a name; longer is refused by the name rules anyway


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
    for line in (subject, *(split_quote(line).content for line in body.split("\n"))):
        match = _CONFIRM.search(line)
        if match:
            return str(SignupCommand(CONFIRM, match.group(1), match.group(2).lower()))
    first = next((split_quote(line) for line in body.split("\n") if split_quote(line).content), None)
    if first is not None and first.depth == 0:
        text = first.content
    elif first is None:
        text = _SUBJECT_PREFIX.sub("", subject).strip()
    else:
        return None
    match = _ACTION.match(text)
    if not match:
        return None
    word, game, rest = match.group(1).upper(), match.group(2), (match.group(3) or "")
    if word == "JOIN":
        return str(SignupCommand(word, game, rest[:MAX_NAME_CHARS]))
    return str(SignupCommand(word, game))


def parse_signup(command: str) -> SignupCommand | None:
    """The command `find_signup` found (an InboundMail's command line), or None for any other."""
    words = command.split(maxsplit=2)
    if len(words) < 2 or words[0] not in (*ACTIONS, CONFIRM):
        return None
    return SignupCommand(words[0], words[1], words[2] if len(words) > 2 else "")
