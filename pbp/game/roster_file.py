"""The roster of a game (docs/design.md: Command line): a CSV with columns `name,email` and
optional `timezone,forum_name,language` (the language the player reads, `de`; English when
empty), and the host-run characters (`--npc`) of a ruleset that has them.

Names follow `engine.name_problem` (every ruleset's words) and are unique ignoring case
and accents (NPCs included); addresses are unique too, since an address is half of a
player's identity.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from email.headerregistry import Address
from email.errors import HeaderParseError

from engine import name_problem
from engine.core import RulesetCard
from engine.names import name_clash, name_clashes
from pbp.errors import UserError
from pbp.game.record_parts import Npc, RosterPlayer
from pbp.render.languages import SOURCE_LANGUAGE, language_problem
from pbp.timezones import zone_problem

COLUMNS = ("name", "email", "timezone", "forum_name", "language")
COLUMNS_TEXT = "name,email[,timezone,forum_name,language]"


def normalise_address(text: str) -> str | None:
    """The address lower-cased, or None when it is not one plain `local@domain`."""
    text = text.strip()
    if not text or any(c in text for c in " <>,;\"'()"):
        return None
    try:
        address = Address(addr_spec=text)
    except (HeaderParseError, ValueError, IndexError):
        return None
    if not address.username or not address.domain or "." not in address.domain:
        return None
    return address.addr_spec.lower()


def parse_roster(text: str, source: str = "roster") -> list[RosterPlayer]:
    """Every row of the CSV, or a UserError listing every problem of every row at once."""
    rows = [row for row in csv.reader(io.StringIO(text)) if any(cell.strip() for cell in row)]
    header, rows, first_row = _header(rows, source)
    entries: list[RosterPlayer] = []
    problems: list[str] = []
    for number, row in enumerate(rows, start=first_row):
        entry, row_problems = _player(dict(zip(header, (c.strip() for c in row))))
        problems.extend(f"{source} row {number}: {problem}" for problem in row_problems)
        entries.append(entry)
    if not entries:
        raise UserError(f"{source} has no players; write one line per player: name,email.")
    problems.extend(f"{source}: {clash}." for clash in name_clashes([e.name for e in entries]))
    emails = [e.email for e in entries if e.email]
    for email in sorted({e for e in emails if emails.count(e) > 1}):
        problems.append(
            f"{source}: the address {email} appears twice; every player needs their own address."
        )
    if problems:
        raise UserError(
            problems[0]
            if len(problems) == 1
            else f"{source} has {len(problems)} problems; fix them all and run again:\n"
            + "\n".join(f"- {problem}" for problem in problems)
        )
    return entries


def _header(rows: list[list[str]], source: str) -> tuple[list[str], list[list[str]], int]:
    """(the columns, the rows of players, the number of the first of them): the header row
    if the CSV has one, else the columns in their order; a UserError for a first row that is
    neither a player nor the header, or an unknown column."""
    if rows and [c.strip().lower() for c in rows[0][:2]] == ["name", "email"]:
        header = [c.strip().lower() for c in rows[0]]
        rows = rows[1:]
        first_row = 2
    else:
        header = list(COLUMNS)
        first_row = 1
        if (
            rows
            and len(rows[0]) > 1
            and "@" not in rows[0][1]
            and any(cell.strip().lower() in COLUMNS for cell in rows[0])
        ):
            raise UserError(
                f"{source} row 1: {','.join(c.strip() for c in rows[0])!r} is neither a player nor "
                f"the header; the header is {COLUMNS_TEXT}, in that order."
            )
    unknown = set(header) - set(COLUMNS)
    if unknown:
        raise UserError(
            f"{source}: unknown column {sorted(unknown)[0]!r}; the columns are {COLUMNS_TEXT}."
        )
    return header, rows, first_row


def _player(cells: dict[str, str]) -> tuple[RosterPlayer, list[str]]:
    """One row's player, and what is wrong with its name, address, zone or language."""
    name = unicodedata.normalize("NFC", cells.get("name", ""))
    raw_email = cells.get("email", "")
    row_problems = [f"{problem}." for problem in [name_problem(name)] if problem]
    email = normalise_address(raw_email)
    if email is None:
        row_problems.append(f"{raw_email!r} is not an email address like name@example.org.")
    zone_name = cells.get("timezone", "")
    zone = zone_problem(zone_name)
    if zone:  # every deadline a player sees is shown in this zone
        row_problems.append(zone)
    language = cells.get("language", "").lower() or SOURCE_LANGUAGE
    unwritten = language_problem(language)
    if unwritten:  # every mail the player gets is written in it
        row_problems.append(unwritten)
    entry = RosterPlayer(
        name, email or "", zone_name, cells.get("forum_name", ""), language=language
    )
    return entry, row_problems


def check_unique(names: list[str], source: str) -> None:
    clash = name_clash(names)
    if clash:
        raise UserError(f"{source}: {clash}.")


def parse_npc(text: str, card: RulesetCard) -> Npc:
    """`NAME:CLASS:TEAM`, e.g. `Raiden:renegade:neutral`, with a class and team from the
    ruleset's card (a ruleset without NPCs refuses them when the game is made)."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) != 3:
        raise UserError(
            f"--npc {text!r} is not NAME:CLASS:TEAM; write it like --npc Raiden:renegade:neutral."
        )
    name, npc_class, team = parts
    problem = name_problem(name)
    if problem:
        raise UserError(f"--npc {text!r}: {problem}.")
    if card.npcs_allowed and npc_class.lower() not in card.npc_kinds:
        raise UserError(f"--npc {text!r}: class must be one of {', '.join(card.npc_kinds)}.")
    if card.npcs_allowed and team.lower() not in card.npc_teams:
        raise UserError(f"--npc {text!r}: team must be one of {', '.join(card.npc_teams)}.")
    return Npc(name, npc_class.lower(), team.lower())
