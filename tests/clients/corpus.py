"""The corpus: replies of real mail clients to pbp's real mails, each filled in one of the
ways players fill forms, with the orders the player meant and the outcome pbp must reach.

Fill styles (the `style` column of the outcome table):
- kept: every `#` line kept, the order's template line turned into the order;
- literal: the form's instruction followed to the letter: the `#` of the template deleted
  and the choice put in place of its `<…>`, whatever else that line held left on it;
- deleted: the `#` lines deleted, the orders under the TOKEN line;
- typed-in-quote: the orders typed inside the quoted form (or edited where it stands);
- bottom: the filled block below the quote;
- own-mail: a reply to one's own earlier orders mail (the old block comes along);
- changed: new orders, as a reply to pbp's receipt of the earlier ones (which the client
  copies into the reply, the accepted orders listed in it);
- html-only: the form filled in the HTML part only (Apple Mail's text part keeps the quote);
- withdraw: a block taking back orders accepted earlier;
- outside: orders written in the mail's text, outside any block.

Every case expects "accepted" except where the player's mail holds no reading without
guessing (orders outside any block): those must be refused, and the receipt must say the
true reason (`reason`: what it must quote).
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.clients.builder import Fill


@dataclass(frozen=True)
class Case:
    id: str
    client: str  # a key of tests.clients.clients.CLIENTS
    scenario: str  # a ground of tests.clients.grounds
    fill: Fill
    style: str
    meant: tuple[str, ...] | None = None  # None: the scenario's usual orders
    written: tuple[str, ...] | None = None  # what the player writes, when not the orders meant
    earlier: tuple[str, ...] = ()  # orders the same player sent (and pbp accepted) before this mail
    # "pbp": the mail that brought the phase's form, or pbp's receipt of the earlier orders;
    # "own": the player's earlier orders mail
    reply_to: str = "pbp"
    expect: str = "accepted"  # or "refused"
    reason: tuple[str, ...] = ()  # what a refusal's receipt must quote


KEPT_TOP, KEPT_IN_QUOTE, LITERAL_TOP = (
    Fill("uncomment", "top"),
    Fill("uncomment", "quote"),
    Fill("literal", "top"),
)
DELETED_TOP, DELETED_BOTTOM = Fill("strip", "top"), Fill("strip", "bottom")
KEPT_BOTTOM, TYPED_IN_QUOTE = Fill("uncomment", "bottom"), Fill("typed", "quote")
HTML_ONLY, OUTSIDE = Fill("typed", "html-only"), Fill("strip", "outside")


def _kept(client: str, scenario: str, **more) -> Case:
    return Case(f"{client}/{scenario}/kept", client, scenario, KEPT_TOP, "kept", **more)


def _literal(client: str, scenario: str) -> Case:
    return Case(f"{client}/{scenario}/literal", client, scenario, LITERAL_TOP, "literal")


def _kept_in_quote(client: str, scenario: str) -> Case:
    return Case(
        f"{client}/{scenario}/kept-in-quote", client, scenario, KEPT_IN_QUOTE, "typed-in-quote"
    )


def _deleted(client: str, scenario: str) -> Case:
    return Case(f"{client}/{scenario}/deleted", client, scenario, DELETED_TOP, "deleted")


def _typed(client: str, scenario: str) -> Case:
    return Case(
        f"{client}/{scenario}/typed-in-quote", client, scenario, TYPED_IN_QUOTE, "typed-in-quote"
    )


def _bottom(client: str, scenario: str, fill: Fill = DELETED_BOTTOM) -> Case:
    return Case(f"{client}/{scenario}/bottom", client, scenario, fill, "bottom")


def _own_mail(client: str, scenario: str, earlier: tuple[str, ...], meant: tuple[str, ...]) -> Case:
    return Case(
        f"{client}/{scenario}/own-mail",
        client,
        scenario,
        DELETED_TOP,
        "own-mail",
        meant=meant,
        earlier=earlier,
        reply_to="own",
    )


def _changed(
    client: str, scenario: str, fill: Fill, earlier: tuple[str, ...], meant: tuple[str, ...]
) -> Case:
    return Case(
        f"{client}/{scenario}/changed",
        client,
        scenario,
        fill,
        "changed",
        meant=meant,
        earlier=earlier,
    )


def _withdraw(
    client: str,
    scenario: str,
    fill: Fill,
    earlier: tuple[str, ...],
    written: tuple[str, ...],
    meant: tuple[str, ...],
) -> Case:
    return Case(
        f"{client}/{scenario}/withdraw",
        client,
        scenario,
        fill,
        "withdraw",
        meant=meant,
        written=written,
        earlier=earlier,
    )


def _outside(client: str, scenario: str, line: str) -> Case:
    return Case(
        f"{client}/{scenario}/outside",
        client,
        scenario,
        OUTSIDE,
        "outside",
        meant=(line,),
        expect="refused",
        reason=(line,),
    )


def _html_only(client: str, scenario: str) -> Case:
    return Case(f"{client}/{scenario}/html-only", client, scenario, HTML_ONLY, "html-only")


CASES: tuple[Case, ...] = (
    _kept("gmail-web", "ww-nominate"),
    _deleted("gmail-web", "inf-movement"),
    _typed("gmail-web", "ww-witch"),
    _own_mail("gmail-web", "ww-nominate", ("NOMINATE Bruno",), ("NOMINATE Dmitri",)),
    _outside("gmail-web", "ww-nominate", "NOMINATE Bruno"),
    _kept_in_quote("gmail-android", "ww-vote"),
    _kept("gmail-android", "inf-decision"),
    _typed("gmail-android", "ww-nominate"),
    _literal("gmail-web-fr", "ww-nominate"),
    _typed("gmail-web-fr", "inf-movement"),
    _deleted("gmail-web-es", "ww-vote"),
    _kept("gmail-web-es", "ww-witch"),
    _bottom("gmail-web-pt", "inf-decision"),
    _typed("gmail-web-pt", "ww-nominate"),
    _kept("gmail-android-ru", "ww-nominate"),
    _deleted("gmail-android-ru", "ww-witch"),
    _kept("outlook-desktop", "ww-nominate"),
    _kept_in_quote("outlook-desktop", "inf-movement"),
    _own_mail("outlook-desktop", "ww-nominate", ("NOMINATE Bruno",), ("NOMINATE Alice",)),
    _withdraw(
        "outlook-desktop",
        "ww-witch",
        DELETED_TOP,
        ("SAVE", "POISON José"),
        ("WITHDRAW POISON",),
        ("SAVE",),
    ),
    _typed("outlook-desktop-de", "ww-nominate"),
    _own_mail("outlook-desktop-de", "ww-vote", ("VOTE Ingrid",), ("VOTE Farid",)),
    _deleted("outlook-desktop-de", "inf-decision"),
    _kept("outlook-html-only-nl", "ww-nominate"),
    _deleted("outlook-html-only-nl", "inf-movement"),
    _typed("outlook-html-only-nl", "ww-witch"),
    _kept("outlook-plain", "ww-nominate"),
    _kept("outlook-plain", "inf-movement"),
    _own_mail("outlook-plain", "ww-nominate", ("NOMINATE José",), ("NOMINATE Greta",)),
    _typed("outlook-plain", "inf-decision"),
    _literal("outlook-web", "ww-nominate"),
    _own_mail("outlook-web", "ww-witch", ("POISON José",), ("SAVE",)),
    _typed("outlook-web", "inf-movement"),
    _deleted("outlook-ios-fr", "ww-nominate"),
    _kept("outlook-ios-fr", "ww-vote"),
    _outside("outlook-ios-fr", "ww-vote", "VOTE Ingrid"),
    _kept("windows-mail", "ww-nominate"),
    _deleted("windows-mail", "inf-decision"),
    _kept("apple-mail", "ww-nominate"),
    _typed("apple-mail", "inf-movement"),
    _bottom("apple-mail", "ww-witch"),
    _html_only("apple-mail-html", "ww-nominate"),
    _html_only("apple-mail-html", "inf-decision"),
    _kept("apple-mail-html", "ww-vote"),
    Case(
        "iphone/ww-nominate/deleted",
        "iphone",
        "ww-nominate",
        DELETED_TOP,
        "deleted",
        meant=("NOMINATE Bruno",),
        written=("Nominate bruno",),
    ),  # typed in lower case, the phone capitalising the line
    _typed("iphone", "ww-witch"),
    _outside("iphone", "ww-nominate", "NOMINATE Bruno"),
    _literal("iphone", "inf-movement"),
    _kept("iphone-ja", "ww-nominate"),
    _typed("iphone-ja", "ww-vote"),
    _bottom("thunderbird", "ww-nominate", KEPT_BOTTOM),
    _typed("thunderbird", "inf-movement"),
    _withdraw("thunderbird", "ww-witch", DELETED_BOTTOM, ("POISON José",), ("WITHDRAW ALL",), ()),
    _kept("thunderbird", "inf-decision"),
    _typed("thunderbird-de", "ww-nominate"),
    _bottom("thunderbird-de", "ww-vote"),
    _kept("horde", "ww-nominate"),
    _kept_in_quote("horde", "inf-movement"),
    _typed("horde", "inf-decision"),
    _kept("yahoo", "ww-nominate"),
    _typed("yahoo", "ww-witch"),
    _withdraw(
        "yahoo",
        "ww-nominate",
        Fill("typed", "top"),
        ("NOMINATE Bruno",),
        ("WITHDRAW NOMINATE",),
        (),
    ),
    _deleted("gmx-de", "ww-nominate"),
    _kept_in_quote("gmx-de", "inf-movement"),
    _typed("gmx-de", "ww-vote"),
    _changed("gmx-de", "ww-nominate", DELETED_TOP, ("NOMINATE Bruno",), ("NOMINATE Chloé",)),
    _changed("yahoo", "ww-vote", KEPT_TOP, ("VOTE Ingrid",), ("VOTE Farid",)),
    _changed(
        "outlook-web",
        "inf-decision",
        KEPT_TOP,
        ("USE HISTORY A-5", "VOTE Elena"),
        ("VOTE NO LYNCH",),
    ),
    _changed(
        "thunderbird-de", "ww-nominate", DELETED_BOTTOM, ("NOMINATE Bruno",), ("NOMINATE Hugo",)
    ),
    _changed("outlook-plain", "inf-movement", KEPT_TOP, ("MOVE B-7",), ("STAY",)),
    _changed("windows-mail", "ww-vote", DELETED_TOP, ("VOTE Ingrid",), ("VOTE Farid",)),
)
