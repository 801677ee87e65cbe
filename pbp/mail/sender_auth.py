"""Sender authentication as a second lock (design.md: Real mail providers): the receiving
mail server checks SPF, DKIM and DMARC and writes what it found into an
`Authentication-Results` header (RFC 8601) headed by its own `authserv-id`. When the
settings name that id, pbp reads those results with `authres` and refuses mail whose From
domain fails DMARC — or, where the domain publishes no DMARC policy, has neither an SPF
pass for an aligned envelope domain nor a DKIM pass for an aligned signing domain —
whatever the token.

Only the trusted server's own headers count: the first Authentication-Results header from
the top that carries the trusted id, with those of the same id directly adjacent to it
(OpenDKIM and OpenDMARC each add one, one above the other; at most three). Any header
further down was there before the mail reached the trusted server (the sender, or a
server on the way, wrote it), so it is ignored whatever id it claims. A header is known by
its id before its results are parsed: when a header of the trusted id cannot be parsed
(a sender can cause that, with an address-literal HELO or a UTF-8 envelope sender), the
mail is not authenticated, and nothing below it is read in its place. The trusted server
must add its header to every mail it accepts (Gmail, Microsoft 365 and OpenDKIM/OpenDMARC do).

Alignment is relaxed (RFC 7489 3.1): the domains are equal or one is a subdomain of the
other. Microsoft 365 writes its results without an authserv-id; the setting's value
`no-authserv-id` names exactly that header.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import authres

NO_AUTHSERV_ID = "no-authserv-id"
MAX_TRUSTED_HEADERS = 3  # one server's headers side by side (OpenDKIM, OpenDMARC, an SPF filter)
_COMMENT = re.compile(r"\([^()]*\)")


def trusted_results(headers: Sequence[tuple[int, str]], trusted_id: str) -> list[Any] | None:
    """The parsed results of the trusted server's headers; `headers` are (position among
    all header fields, value) of every Authentication-Results field, top first. None when
    a header of the trusted id cannot be read: the mail is then not authenticated, since
    whatever lies below it may be forged."""
    trusted_id = trusted_id.lower()
    counted: list[Any] = []  # authres.AuthenticationResultsHeader (an untyped library)
    last_position = -1
    for position, value in headers:
        mine = authserv_id(value) == trusted_id
        if counted and (not mine or position != last_position + 1):
            break  # past the trusted block: whatever follows came from elsewhere
        if not mine:
            continue  # another server's, above the trusted one
        parsed = _parse(value)
        if parsed is None or (parsed.authserv_id or "").lower() != trusted_id:
            return None
        counted.append(parsed)
        last_position = position
        if len(counted) == MAX_TRUSTED_HEADERS:
            break
    return [result for header in counted for result in header.results]


def authserv_id(value: str) -> str:
    """The authserv-id a header starts with, read without parsing the rest (RFC 8601: the
    first word, comments aside), lower-cased; `no-authserv-id` when the header starts
    with a result instead (Microsoft 365). So a header whose results cannot be parsed is
    still known by its id."""
    text = _COMMENT.sub(" ", str(value)).strip()
    first = re.split(r"[\s;]", text, maxsplit=1)[0].strip('"')
    return NO_AUTHSERV_ID if "=" in first or not first else first.lower()


def refusal(headers: Sequence[tuple[int, str]], from_address: str, trusted_id: str) -> str | None:
    """Why the trusted server's results do not show `from_address`'s domain as the
    sender, in words for the player; None when they do."""
    domain = from_address.rpartition("@")[2].lower()
    results = trusted_results(headers, trusted_id)
    if results is None:
        return (
            f"the authentication results of the receiving mail server ({trusted_id}) could not be "
            f"read, so it cannot be shown to come from {domain}"
        )
    if not results:
        return (
            f"it carries no authentication results from the receiving mail server ({trusted_id}), "
            f"so it cannot be shown to come from {domain}"
        )
    dmarc = [
        r
        for r in results
        if r.method == "dmarc" and _aligned(_property(r, "header", "from") or domain, domain)
    ]
    if any(r.result == "fail" for r in dmarc):
        return (
            f"the receiving mail server found that it fails DMARC for {domain}, so it may be forged"
        )
    if any(r.result == "pass" for r in dmarc):
        return None
    spf = any(
        r.method == "spf"
        and r.result == "pass"
        and _aligned(
            _domain_of(_property(r, "smtp", "mailfrom") or _property(r, "smtp", "helo")), domain
        )
        for r in results
    )
    dkim = any(
        r.method == "dkim"
        and r.result == "pass"
        and _aligned(_domain_of(_property(r, "header", "d") or _property(r, "header", "i")), domain)
        for r in results
    )
    if spf or dkim:
        return None
    return (
        f"the receiving mail server could not confirm it comes from {domain} (no DMARC result, and "
        f"neither SPF nor DKIM passed for {domain}), so it may be forged"
    )


def _parse(value: str) -> Any:
    text = " ".join(str(value).split())
    first = text.split(";", 1)[0]
    if "=" in first:  # no authserv-id before the first result (Microsoft 365)
        text = f"{NO_AUTHSERV_ID}; {text}"
    try:
        return authres.AuthenticationResultsHeader.parse_value(text)
    except Exception:  # noqa: BLE001 - a header authres cannot read counts as no header
        return None


def _property(result: Any, kind: str, name: str) -> str:
    for prop in result.properties:
        if prop.type == kind and prop.name == name:
            return str(prop.value or "")
    return ""


def _domain_of(value: str) -> str:
    return value.rpartition("@")[2].strip().strip(".").lower()


def _aligned(found: str, domain: str) -> bool:
    found = found.strip().strip(".").lower()
    return "." in found and (
        found == domain or found.endswith("." + domain) or domain.endswith("." + found)
    )
