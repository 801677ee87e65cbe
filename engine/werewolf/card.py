"""Werewolf's ruleset card (engine.core.RulesetCard): the phase kinds and their words, the
order table for HELP — the day orders, then every role's night orders read from the
game's role table, so a role the host added is listed like a built-in one —
and the words a name may not be (rules: Order grammar)."""

from __future__ import annotations

from engine.errors import Wording

from collections import Counter
from typing import Any, Mapping, Sequence

from engine.core import (
    OrderLine,
    PhaseKind,
    PublicCharacter,
    RulesetCard,
    SecretFields,
    listed_characters,
)
from engine.werewolf.balance.study import BALANCE_STUDY
from engine.werewolf.balance.variants import SETUP_VARIANTS
from engine.keyword_names import every_name
from engine.werewolf.keyword_names import KEYWORD_NAMES
from engine.werewolf.orders import Nominate, Vote
from engine.werewolf.phases import DAY_NOTES
from engine.werewolf.table import RoleTable

_DAY_LINES = (
    OrderLine(
        "Dn-nominate / Dn-runoff",
        ("nominate", "runoff"),
        "NOMINATE <player>",
        "every living player",
        "the two most nominated stand trial (yourself allowed)",
    ),
    OrderLine(
        "Dn-vote",
        ("vote",),
        "VOTE <defendant> or VOTE NO LYNCH",
        "every living player",
        "NO LYNCH only when there is one defendant",
    ),
)
# Night phase kinds, in the order they come, with the words the rules use for them.
_NIGHT_PHASES = {"night0": "N0", "night": "Nn", "witch": "Nn-witch"}

# Default lengths: a day for most phases, two for the vote, where players talk things over;
# half a day for a runoff (rules: Day §2) and for the Witch's turn.
PHASE_KINDS = (
    PhaseKind("night0", "night 0", "24h"),
    PhaseKind("nominate", "each day's nominations", "24h"),
    PhaseKind("runoff", "a runoff nomination round", "12h"),
    PhaseKind("vote", "each day's vote", "48h"),
    PhaseKind("night", "each night", "24h"),
    PhaseKind("witch", "the Witch's turn after each night", "12h"),
)

# Where a view holds what a public post must not tell (engine.core.SecretFields): a
# character's role and faction, and the teams in its reports (`team`, `newcomer`); a record
# is about the character in its `name`, a report's `player` or a result's `target`.
SECRET_FIELDS = SecretFields(
    personal=frozenset({"role", "faction", "team"}), subjects=("name", "player", "target")
)


_DAY_STEPS = {"nominate": "nominations", "runoff": "runoff nominations", "vote": "vote"}


def phase_words(phase_id: str) -> str:
    """`Night 0`, `Night 1`, `Night 1 — the Witch's turn`, `Day 2 — nominations`,
    `Day 2 — runoff nominations`, `Day 2 — vote` (any other id is returned as it is)."""
    number, _, step = phase_id[1:].partition("-")
    if not number.isdigit():
        return phase_id
    if phase_id.startswith("N") and step in ("", "witch"):
        return f"Night {number}" + (" — the Witch's turn" if step else "")
    if phase_id.startswith("D") and step in _DAY_STEPS:
        return f"Day {number} — {_DAY_STEPS[step]}"
    return phase_id


def order_table(table: RoleTable) -> tuple[OrderLine, ...]:
    """The day orders, then one line per night order naming every role that gives it."""
    night: dict[tuple[str, str], dict[str, Any]] = {}
    for role in table.roles:
        for kind in role.orders:
            syntax = kind.keyword if kind.target == "none" else f"{kind.keyword} <player>"
            line = night.setdefault((kind.phase_kind, syntax), {"who": [], "note": kind.note})
            line["who"].append(role.name.replace("_", " ").title())
    order = list(_NIGHT_PHASES)
    lines = sorted(
        night.items(),
        key=lambda item: order.index(item[0][0]) if item[0][0] in order else len(order),
    )
    return _DAY_LINES + tuple(
        OrderLine(
            _NIGHT_PHASES.get(kind, kind), (kind,), syntax, ", ".join(facts["who"]), facts["note"]
        )
        for (kind, syntax), facts in lines
    )


# The words of each role's own state (`role_state` keys), as literals so that the catalog
# holds them (docs/design.md: Languages — the desk's words).
STATE_WORDS = {
    "last_protected": Wording("Last protected"),
    "last_silenced": Wording("Last silenced"),
    "roused": Wording("Roused"),
    "seduced": Wording("Seduced"),
}


def _role_state_line(key: str, value: Any) -> Wording:
    """One entry of a role's own state in words: a spent once-per-game power, a last target."""
    words = STATE_WORDS.get(key) or Wording(key.replace("_", " ").capitalize())
    if key.endswith("_used"):
        keyword = {"keyword": key[: -len("_used")].upper()}
        return (
            Wording("%(keyword)s: used", keyword)
            if value
            else Wording("%(keyword)s: left", keyword)
        )
    if isinstance(value, bool):
        return (
            Wording("%(words)s: yes", {"words": words})
            if value
            else Wording("%(words)s: no", {"words": words})
        )
    if value is None:
        return Wording("%(words)s: nobody yet", {"words": words})
    return Wording("%(words)s: %(name)s", {"words": words, "name": value})


def joined(parts: list[Wording], between: str = "; ") -> Wording:
    """The wordings one after the other (a line of several), each worded on its own."""
    names = ["part" + str(number) for number in range(len(parts))]
    template = between.join("%(" + name + ")s" for name in names)
    return Wording(template, dict(zip(names, parts)))


def character_summary(view: Mapping[str, Any]) -> tuple[Wording, ...]:
    """The host's lines about one character, from its own view (engine.core.RulesetCard):
    role and faction, alive or dead, lover and known teammates, a silence, and what its
    role has left (the Witch's potions, the Bodyguard's last protected …). Each line is a
    Wording: `str()` is its English, the desk words it in the host's language."""
    me = view["me"]
    facts = {"role": str(me["role"]).capitalize(), "faction": me["faction"]}
    silenced, alive = bool(me.get("silenced")), bool(me["alive"])
    first = (
        Wording("%(role)s (%(faction)s), alive, silenced today", facts)
        if silenced and alive
        else Wording("%(role)s (%(faction)s), dead, silenced today", facts)
        if silenced
        else Wording("%(role)s (%(faction)s), alive", facts)
        if alive
        else Wording("%(role)s (%(faction)s), dead", facts)
    )
    lines = [first]
    if me.get("lover"):
        lines.append(Wording("Lover: %(name)s", {"name": me["lover"]}))
    for team, names in (me.get("teams") or {}).items():
        if names:  # the last wolf knows no other
            lines.append(
                Wording("Knows the %(team)s: %(names)s", {"team": team, "names": ", ".join(names)})
            )
    if me.get("role_state"):
        lines.append(joined([_role_state_line(k, v) for k, v in sorted(me["role_state"].items())]))
    return tuple(lines)


def public_choice(order: Any) -> str | None:
    """Nominations and votes are public once accepted (rules: Order grammar)."""
    if isinstance(order, Nominate):
        return order.target
    if isinstance(order, Vote):
        return order.target or "NO LYNCH"
    return None


# How a forum post takes a nomination or a vote back (rules: both may change until the
# deadline; docs/design.md: Public posts — votes in the thread).
TAKE_BACK_WORDS = (("UNNOMINATE", "NOMINATE"), ("UNVOTE", "VOTE"))


SIDE_NAMES = (
    ("village", "the Village"),
    ("wolves", "the Wolves"),
    ("weregerbil", "the Weregerbils"),
    ("werehamster", "the Werehamster"),
)
VICTORY_PATHS = (
    ("weregerbils-outnumber", "the Weregerbils match both the wolves and the village"),
    ("no-wolves-left", "no wolf is left alive"),
    ("wolves-parity", "the wolves are as many as the village at dawn"),
)


def public_roster(view: Mapping[str, Any]) -> tuple[PublicCharacter, ...]:
    """Every character of the public view, a dead one with the day or night it died in."""
    return listed_characters(
        view,
        lambda entry: (
            phase_words(str(entry["died_in"])).split(" — ")[0] if entry.get("died_in") else ""
        ),
    )


def setup_name(seats: Sequence[tuple[str, str]]) -> str:
    """A setup by its roles, each with its count (`pbp stats`)."""
    roles = Counter(role for role, _team in seats)
    return ", ".join(
        f"{role}×{count}" if count > 1 else role for role, count in sorted(roles.items())
    )


def make_card(table: RoleTable) -> RulesetCard:
    """The card of a Werewolf game played with `table`'s roles."""
    keywords = {kind.keyword for role in table.roles for kind in role.orders}
    return RulesetCard(
        public_choice=public_choice,
        logged_orders=tuple(sorted(keywords)),
        game_id_prefix="ww",
        phase_kinds=PHASE_KINDS,
        orders=order_table(table),
        reserved_words=_reserved_words(keywords),
        public_orders=("NOMINATE", "VOTE"),
        take_back_words=TAKE_BACK_WORDS,
        keyword_names=KEYWORD_NAMES,
        roles=tuple((role.name, role.faction, role.summary) for role in table.roles),
        texts=_texts(table),
        character_summary=character_summary,
        secret_fields=SECRET_FIELDS,
        channel_orders=(("pack", "KILL"),),
        phase_words=phase_words,
        side_names=SIDE_NAMES,
        victory_paths=VICTORY_PATHS,
        # rules: "free to keep his eyes open at night": the dead watch by default
        default_moderator_options=(("spectators", "dead"),),
        accepts_extra_roles=True,
        demo_players=9,
        demo_seed="20",
        length_unit="days",
        setup_name=setup_name,
        public_roster=public_roster,
        balance_study=BALANCE_STUDY,
        setup_variants=SETUP_VARIANTS,
        # Bumped by a change to the rulings or the state's shape
        # (tests/upgrades/test_rules_versions.py).
        rules_version=1,
    )


def _reserved_words(keywords: set[str]) -> frozenset[str]:
    """The words a name may not be: every order keyword, in every language, and the words
    of the day's orders and of taking a vote back."""
    return frozenset(
        word.upper()
        for word in (
            *keywords,
            "NOMINATE",
            "VOTE",
            "NO",
            "LYNCH",
            *(word for word, _ in TAKE_BACK_WORDS),
            *every_name(KEYWORD_NAMES),
        )
    )


def _texts(table: RoleTable) -> tuple[str, ...]:
    """The day's notes and every role's note for a lone actor, each once, in that order."""
    return tuple(
        dict.fromkeys(
            (
                *DAY_NOTES,
                *(kind.lone_note for role in table.roles for kind in role.orders if kind.lone_note),
            )
        )
    )
