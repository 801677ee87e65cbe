"""What may go into a header of a mail pbp sends (docs/design.md: Hostile input — "no byte of
an incoming header reaches an outgoing header unchecked").

Two checks, used wherever a header value is made from text that came from outside (a
subject, a name, a Message-ID), on the way in and again when the mail is composed:

- `header_line` reduces text to printable text on one line. It removes every line
  separator `str.splitlines()` knows (CR, LF, \\x0b, \\x0c, \\x1c-\\x1e, \\x85, \\u2028,
  \\u2029) and every control or format character, and breaks up `=?`, so the email
  package cannot decode an RFC 2047 word hidden in it into a CR LF when it writes the mail.
- `strict_message_id` admits only Message-IDs of one strict shape: `<`, printable ASCII
  with no whitespace, no `<` or `>` and no `=?`, then `>`. Only such ids are ever copied
  into In-Reply-To or References, whatever the Python version's header parser would do
  with anything else.
"""

from __future__ import annotations

import re
import unicodedata

_MESSAGE_ID = re.compile(r"<[\x21-\x3b\x3d\x3f-\x7e]{1,250}>")
_SPACES = re.compile(r"\s+")
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]*")
# Unicode categories that are not printable text on one line: controls (Cc, which holds
# CR, LF and the other C0/C1 separators), format characters (Cf: bidi overrides, zero
# widths), surrogates, private use, unassigned, and the line and paragraph separators.
_UNPRINTABLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def header_line(text: str, limit: int = 300) -> str:
    """`text` as printable text on one line, at most `limit` characters: each run of
    separators, control characters and spaces becomes one space."""
    text = str(text)
    if _PRINTABLE_ASCII.fullmatch(text):  # most values: nothing to look up character by character
        kept = text
    else:
        kept = "".join(
            " " if unicodedata.category(char) in _UNPRINTABLE_CATEGORIES else char for char in text
        )
    line = _SPACES.sub(" ", kept).strip().replace("=?", "= ?")
    return line[:limit].rstrip()


def strict_message_id(value: str) -> str | None:
    """`value` when it is a Message-ID of the strict shape, else None."""
    value = str(value).strip()
    if _MESSAGE_ID.fullmatch(value) and "=?" not in value:
        return value
    return None


# A reply's marks a mail client puts before a subject: `Re:`, `RE :`, `Re[2]:`, `AW:`, `Sv:`.
_REPLY_MARKS = re.compile(r"^(?:\s*(?:re|aw|sv|antw)\s*(?:\[\d{1,3}\])?\s*:)+\s*", re.IGNORECASE)


def reply_subject(subject: str) -> str:
    """The subject of a reply to a mail with `subject`: one `Re: ` in front of the subject
    without the reply marks it already carries, never `Re: Re:` (linear: one anchored match)."""
    return "Re: " + _REPLY_MARKS.sub("", header_line(subject), count=1)
