"""Werewolf conformance suite (rules/werewolf.md). One numbered scenario per test; the
rule it checks is cited in its docstring. Numbers are stable."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import (
    GameSetupError,
    IllegalOrderError,
    OrderBlockError,
    OrderSyntaxError,
    PlayerSpec,
)
from engine.werewolf import make_ruleset
from engine.werewolf.characters import faction_of
from engine.werewolf.model import VILLAGE, WEREGERBIL, WEREHAMSTER, WOLVES
from engine.werewolf.setups import setup_for
from tests.werewolf.werewolf_helpers import (
    RULES,
    alive,
    game,
    kinds,
    night,
    private_event,
    private_kinds,
    public_event,
    step,
    to_night,
    with_variant,
)

pytestmark = pytest.mark.usefixtures(
    "option_variant"
)  # each case under each option set (conftest.py)


ROLES = RULES.table.by_name


def faction(state, name):
    return faction_of(state.character(name), ROLES)


def rejects(state, player, line, error=IllegalOrderError):
    with pytest.raises(OrderBlockError) as caught:
        RULES.parse_orders(state, player, [line])
    assert isinstance(caught.value.errors[0], error), caught.value
    return str(caught.value.errors[0])


# --------------------------------------------------------------------------- setups
def test_c001_listed_setups():
    """Factions and roles, setups from the source: 8, 9, 10, 12, 15 (+1 Villager,
    deliberate) and 20 players."""
    assert Counter(setup_for(8, "romantic")) == Counter(
        werewolf=2, seer=1, witch=1, bodyguard=1, villager=2, wench=1
    )
    assert Counter(setup_for(9, "romantic")) == Counter(setup_for(8, "romantic")) + Counter(
        howler=1
    )
    assert Counter(setup_for(10, "romantic")) == Counter(setup_for(9, "romantic")) + Counter(
        villager=1
    )
    assert Counter(setup_for(12, "romantic")) == Counter(setup_for(10, "romantic")) + Counter(
        villager=1, weregerbil=1
    )
    assert Counter(setup_for(15, "romantic")) == Counter(
        werewolf=3,
        howler=1,
        seer=1,
        witch=1,
        bodyguard=1,
        romantic=1,
        wench=1,
        villager=5,
        apothecary=1,
    )
    assert Counter(setup_for(20, "romantic")) == Counter(
        werewolf=4,
        howler=1,
        villager=8,
        seer=1,
        witch=1,
        bodyguard=1,
        romantic=1,
        wench=1,
        ninja=1,
        weregerbil=1,
    )
    for count in (8, 9, 10, 11, 12, 15, 20):
        assert len(setup_for(count, "romantic")) == count


def test_c002_fill_rule():
    """Sizes: "Counts between listed setups take the next smaller listed setup plus
    Villagers (this is the rule, not an option)"."""
    assert Counter(setup_for(13, "romantic")) == Counter(setup_for(12, "romantic")) + Counter(
        villager=1
    )
    assert Counter(setup_for(14, "romantic")) == Counter(setup_for(12, "romantic")) + Counter(
        villager=2
    )
    assert Counter(setup_for(19, "romantic")) == Counter(setup_for(15, "romantic")) + Counter(
        villager=4
    )


@pytest.mark.parametrize("pick", ["romantic", "succubus", "werehamster"])
def test_c003_eleven_player_pick(pick):
    """Setups: 11 players: the 10-player game plus the host's pick of Romantic, Succubus
    or Werehamster (option setup_11)."""
    state = RULES.new_game(
        [PlayerSpec(f"P{i}") for i in range(11)], "s", with_variant({"setup_11": pick})
    )
    assert Counter(state.setup) == Counter(setup_for(10, "romantic")) + Counter({pick: 1})


def test_c004_small_games_need_a_role_list():
    """Setups: under 8 players refused unless the host gives an explicit role list; a
    host's list must match the player count."""
    players = [PlayerSpec(f"P{i}") for i in range(5)]
    with pytest.raises(GameSetupError, match="at least 8 players"):
        RULES.new_game(players, "s", with_variant())
    state = RULES.new_game(
        players, "s", with_variant({"roles": "werewolf, seer, villager, villager, Witch"})
    )
    assert Counter(c.role for c in state.characters) == Counter(
        werewolf=1, seer=1, villager=2, witch=1
    )
    with pytest.raises(GameSetupError, match="4 roles but the game has 5 players"):
        RULES.new_game(players, "s", with_variant({"roles": "werewolf,seer,villager,villager"}))
    with pytest.raises(GameSetupError, match="Did you mean seer"):
        RULES.new_game(
            players, "s", with_variant({"roles": "werewolf,seeer,villager,villager,witch"})
        )


def test_c005_deal_is_seeded():
    """Factions and roles: roles are dealt at random from the seeded generator."""
    players = [PlayerSpec(f"P{i}") for i in range(12)]
    deal = lambda seed: [c.role for c in RULES.new_game(players, seed, with_variant()).characters]  # noqa: E731
    assert deal("a") == deal("a")
    assert any(deal("a") != deal(str(s)) for s in range(5))


# --------------------------------------------------------------------------- phases
def test_c006_phase_sequence_and_secret_actors():
    """Phases, their ids: N0, Dn-nominate, Dn-vote, Nn, Nn-witch; night phases list
    every living player as an actor and keep actors secret (N0 only when a role of the
    setup acts in it: otherwise everyone knows that nobody does)."""
    state = game(
        {
            "Alice": "werewolf",
            "Bruno": "witch",
            "Chloe": "villager",
            "Dmitri": "seer",
            "Elena": "villager",
        }
    )
    seen = []
    phase = RULES.phase(state)
    assert (phase.id, phase.kind, phase.secret_actors, phase.awaited) == ("N0", "night0", False, ())
    assert set(phase.actors) == {"Alice", "Bruno", "Chloe", "Dmitri", "Elena"}
    assert phase.grammar["Chloe"] == ()
    state = step(state).state
    for orders in (
        {"Alice": "NOMINATE Chloe", "Bruno": "NOMINATE Chloe"},
        {"Alice": "VOTE Chloe", "Bruno": "VOTE Chloe"},
        {"Alice": "KILL Elena"},
        {},
    ):
        phase = RULES.phase(state)
        seen.append((phase.id, phase.kind, phase.secret_actors))
        state = step(state, orders).state
    assert seen == [
        ("D1-nominate", "nominate", False),
        ("D1-vote", "vote", False),
        ("N1", "night", True),
        ("N1-witch", "witch", True),
    ]
    assert state.phase_id == "D2-nominate"
    assert not alive(state, "Elena")


def test_c007_witch_phase_even_when_witch_dead_and_no_witch_phase_without_one():
    """Phases: Nn-witch every night when a Witch is in the setup, even if she is dead;
    none when no Witch is in the setup."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "witch",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    )
    state = night(state, {"Alice": "KILL Bruno"}).state
    assert not alive(state, "Bruno")
    state = step(step(state).state).state if False else step(state).state  # D2: no nominations
    assert step(state).state.phase_id == "N2-witch"
    plain = to_night(
        game({"Alice": "werewolf", "Chloe": "villager", "Dmitri": "villager", "Elena": "villager"})
    )
    assert step(plain, {"Alice": "KILL Chloe"}).state.phase_id == "D2-nominate"


# --------------------------------------------------------------------------- roles alone
def test_c008_villager_has_nothing_to_order_at_night():
    """Order grammar: the Villager has no night order; a KILL from her is refused without
    saying who may give it."""
    state = to_night(
        game({"Alice": "werewolf", "Bruno": "villager", "Chloe": "villager", "Dmitri": "villager"})
    )
    assert RULES.phase(state).grammar["Bruno"] == ()
    message = rejects(state, "Bruno", "KILL Chloe")
    assert "nothing to order" in message and "wolf" not in message.lower()


def test_c009_seer_verdicts():
    """Seer: learns wolf / not wolf / third faction."""
    base = {
        "Alice": "werewolf",
        "Bruno": "seer",
        "Chloe": "villager",
        "Dmitri": "weregerbil",
        "Elena": "villager",
        "Farid": "villager",
    }
    for target, verdict in (("Alice", "wolf"), ("Chloe", "not wolf"), ("Dmitri", "third faction")):
        state = to_night(game(base))
        dawn = night(state, {"Bruno": f"SEE {target}"})
        assert private_event(dawn, "Bruno", "vision").data == {"target": target, "verdict": verdict}


def test_c010_ninja_kills_the_seer_before_she_sees():
    """Night: the Ninja's kill is immediate; the target takes no part in the rest of the
    night, so a Seer struck by the Ninja learns nothing."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "seer",
                "Chloe": "ninja",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "SEE Alice", "Chloe": "STRIKE Bruno"})
    assert not alive(dawn.state, "Bruno") and dawn.state.character("Bruno").death_cause == "ninja"
    assert "vision" not in private_kinds(dawn, "Bruno")
    assert public_event(dawn, "dawn").data["deaths"] == ["Bruno"]


def test_c011_ninja_kills_the_wench_bedfellow():
    """Wench / Night: an order aimed at someone already dead that night does nothing: the
    Wench visiting the Ninja's target visits nobody and survives."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "wench",
                "Chloe": "ninja",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "VISIT Dmitri", "Chloe": "STRIKE Dmitri"})
    assert not alive(dawn.state, "Dmitri") and alive(dawn.state, "Bruno")


def test_c012_bodyguard_stops_the_wolves():
    """Bodyguard: the protected player cannot be killed by the werewolves this night."""
    state = to_night(
        game({"Alice": "werewolf", "Bruno": "bodyguard", "Chloe": "villager", "Dmitri": "villager"})
    )
    dawn = night(state, {"Alice": "KILL Chloe", "Bruno": "PROTECT Chloe"})
    assert alive(dawn.state, "Chloe")
    assert public_event(dawn, "dawn").data["deaths"] == []


def test_c013_witch_saves_the_wolves_target():
    """Witch: told the wolves' chosen target; SAVE cancels the wolves' kill (once per game)."""
    state = to_night(
        game({"Alice": "werewolf", "Bruno": "witch", "Chloe": "villager", "Dmitri": "villager"})
    )
    told = step(state, {"Alice": "KILL Chloe"})
    assert (
        told.public == () and private_event(told, "Bruno", "witch_told").data["target"] == "Chloe"
    )
    assert RULES.view(told.state, "Bruno")["me"]["wolves_target"] == "Chloe"
    dawn = step(told.state, {"Bruno": "SAVE"})
    assert alive(dawn.state, "Chloe")
    assert dawn.state.character("Bruno").state("save_used") is True
    assert "SAVE" not in [
        s.keyword for s in RULES.phase(step(step(dawn.state).state).state).grammar.get("Bruno", ())
    ]


def test_c014_witch_saves_herself():
    """Witch: she may save herself."""
    state = to_night(
        game({"Alice": "werewolf", "Bruno": "witch", "Chloe": "villager", "Dmitri": "villager"})
    )
    dawn = night(state, {"Alice": "KILL Bruno"}, {"Bruno": "SAVE"})
    assert alive(dawn.state, "Bruno")


def test_c015_witch_poisons():
    """Witch: POISON someone (once per game); the victim dies at dawn."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "witch",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    )
    dawn = night(state, {"Alice": "KILL Chloe"}, {"Bruno": "POISON Dmitri"})
    assert (
        not alive(dawn.state, "Dmitri") and dawn.state.character("Dmitri").death_cause == "poison"
    )
    assert not alive(dawn.state, "Chloe")
    assert dawn.state.character("Bruno").state("poison_used") is True


def test_c016_save_on_protected_target_is_spent():
    """Witch: a save spent on a protected target is still spent."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "witch",
                "Chloe": "bodyguard",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    )
    dawn = night(state, {"Alice": "KILL Dmitri", "Chloe": "PROTECT Dmitri"}, {"Bruno": "SAVE"})
    assert alive(dawn.state, "Dmitri")
    assert dawn.state.character("Bruno").state("save_used") is True


def test_c017_witch_told_none_cannot_save():
    """Witch: told "none" when the wolves chose nobody; a SAVE then is refused at receipt,
    since she knows there is nothing to save."""
    state = to_night(
        game({"Alice": "werewolf", "Bruno": "witch", "Chloe": "villager", "Dmitri": "villager"})
    )
    told = step(state, {})
    assert private_event(told, "Bruno", "witch_told").data["target"] is None
    assert "no one to save" in rejects(told.state, "Bruno", "SAVE")


def test_c018_wench_dies_with_her_bedfellow():
    """Wench: if her bedfellow dies this night by any cause, she dies too."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "wench",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    )
    dawn = night(state, {"Alice": "KILL Chloe", "Bruno": "VISIT Chloe"})
    assert not alive(dawn.state, "Chloe") and not alive(dawn.state, "Bruno")
    assert dawn.state.character("Bruno").death_cause == "wench"


def test_c019_bedfellow_dies_with_the_wench():
    """Wench: ... and the other way round; the bedfellow is told someone visited."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "wench",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    )
    dawn = night(state, {"Alice": "KILL Bruno", "Bruno": "VISIT Chloe"})
    assert not alive(dawn.state, "Chloe") and not alive(dawn.state, "Bruno")
    safe = night(
        to_night(
            game(
                {
                    "Alice": "werewolf",
                    "Bruno": "wench",
                    "Chloe": "villager",
                    "Dmitri": "villager",
                    "Elena": "villager",
                }
            )
        ),
        {"Alice": "KILL Dmitri", "Bruno": "VISIT Chloe"},
    )
    assert private_kinds(safe, "Chloe") == ["visited"]


def test_c020_lovers_die_together():
    """Romantic: the Romantic picks a lover on night 0, both learn each other; if one
    lover dies, the other dies at once (here by lynch)."""
    state = game(
        {
            "Alice": "werewolf",
            "Bruno": "romantic",
            "Chloe": "villager",
            "Dmitri": "villager",
            "Elena": "villager",
        }
    )
    first = step(state, {"Bruno": "LOVE Chloe"})
    assert private_event(first, "Bruno", "lovers").data == {"lover": "Chloe"}
    assert private_event(first, "Chloe", "lovers").data == {"lover": "Bruno"}
    state = step(first.state, {"Alice": "NOMINATE Chloe"}).state
    dawn = step(state, {"Alice": "VOTE Chloe", "Dmitri": "VOTE Chloe"})
    assert not alive(dawn.state, "Chloe") and not alive(dawn.state, "Bruno")
    assert kinds(dawn.public)[:3] == ["votes", "lynch", "also_died"]


def test_c021_lovers_never_nominate_or_vote_each_other():
    """Order grammar: lovers may never nominate or vote for each other (an order error)."""
    state = step(
        game({"Alice": "werewolf", "Bruno": "romantic", "Chloe": "villager", "Dmitri": "villager"}),
        {"Bruno": "LOVE Chloe"},
    ).state
    assert "lover" in rejects(state, "Chloe", "NOMINATE Bruno")
    state = step(state, {"Alice": "NOMINATE Bruno"}).state
    assert "lover" in rejects(state, "Chloe", "VOTE Bruno")


def test_c022_missing_love_picks_a_random_lover():
    """Order grammar, N0: a missing LOVE is a random living player (seeded)."""
    state = game(
        {"Alice": "werewolf", "Bruno": "romantic", "Chloe": "villager", "Dmitri": "villager"}
    )
    after = step(state).state
    assert after.lovers[0] == "Bruno" and after.lovers[1] in ("Alice", "Chloe", "Dmitri")
    assert step(state).state.lovers == after.lovers


def test_c023_ninja_kill_chains_to_the_lover_at_once():
    """Night: chains from the Ninja's kill are immediate: the lover takes no part in the
    rest of the night (his KILL is void)."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "romantic",
                "Chloe": "ninja",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "werewolf",
            }
        ),
        {"Bruno": "LOVE Alice"},
    )
    dawn = night(state, {"Chloe": "STRIKE Bruno", "Alice": "KILL Dmitri", "Farid": "KILL Elena"})
    assert not alive(dawn.state, "Alice") and dawn.state.character("Alice").death_cause == "lover"
    assert not alive(dawn.state, "Elena") and alive(dawn.state, "Dmitri")


def test_c024_succubus_steals_a_wolf_role():
    """Succubus: seduction resolves first and voids the target's order; roles swap; the
    target becomes a Villager; the Succubus changes faction and she and the wolves learn
    each other at dawn; the wolves' list keeps the seduced wolf (a team list never shrinks
    except by a public death)."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "succubus",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "werewolf",
                "Farid": "villager",
                "Greta": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "SEDUCE Alice", "Alice": "KILL Chloe", "Elena": "KILL Dmitri"})
    assert alive(dawn.state, "Chloe") and not alive(dawn.state, "Dmitri")
    assert (
        dawn.state.character("Bruno").role == "werewolf" and faction(dawn.state, "Bruno") == WOLVES
    )
    assert (
        dawn.state.character("Alice").role == "villager" and faction(dawn.state, "Alice") == VILLAGE
    )
    assert private_event(dawn, "Bruno", "new_role").data == {"role": "werewolf", "faction": WOLVES}
    assert private_event(dawn, "Bruno", "team").data == {"team": WOLVES, "members": ["Elena"]}
    assert private_event(dawn, "Elena", "newcomer").data == {"team": WOLVES, "player": "Bruno"}
    assert private_event(dawn, "Alice", "new_role").data["role"] == "villager"
    assert RULES.view(dawn.state, "Elena")["me"]["teams"] == {WOLVES: ["Alice", "Bruno"]}


def test_c025_succubus_seducing_a_villager_wastes_nothing():
    """Succubus: seducing a Villager wastes nothing: she keeps the power."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "succubus",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "SEDUCE Chloe"})
    assert dawn.state.character("Bruno").role == "succubus"
    assert dawn.state.character("Bruno").state("seduced") is False
    assert private_event(dawn, "Bruno", "seduction_wasted").data == {"target": "Chloe"}


def test_c094_a_succubus_killed_the_night_she_seduces_is_told_her_new_role():
    """Night: "Every role or faction change is told to the character at dawn, to one who
    died that same night too": the wolves kill the Succubus the night she seduces the
    Seer; at dawn she is dead, a Seer, and told so."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "succubus",
                "Chloe": "seer",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "SEDUCE Chloe", "Alice": "KILL Bruno"})
    assert not alive(dawn.state, "Bruno") and dawn.state.character("Bruno").role == "seer"
    assert private_event(dawn, "Bruno", "new_role").data["role"] == "seer"


def test_c026_succubus_inherits_role_state():
    """Succubus: she inherits the role's state (potions) and acts in it from the next
    night; the seduced Witch's order that night is void though she may still send it."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "succubus",
                "Chloe": "witch",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    told = step(state, {"Bruno": "SEDUCE Chloe", "Alice": "KILL Dmitri"})
    assert RULES.view(told.state, "Chloe")["me"]["role"] == "witch"  # nothing shows before dawn
    dawn = step(told.state, {"Chloe": "SAVE"})
    assert not alive(dawn.state, "Dmitri")
    bruno = dawn.state.character("Bruno")
    assert bruno.role == "witch" and bruno.state("save_used") is False
    witch_phase = step(step(dawn.state).state, {"Alice": "KILL Elena"}).state
    assert [spec.keyword for spec in RULES.phase(witch_phase).grammar["Bruno"]] == [
        "SAVE",
        "POISON",
    ]
    assert RULES.phase(witch_phase).grammar["Chloe"] == ()


def test_c027_seer_seeing_a_werehamster_becomes_one():
    """Seer: seeing a Werehamster makes the Seer a Werehamster too (she keeps her power)."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "seer",
                "Chloe": "werehamster",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "SEE Chloe"})
    bruno = dawn.state.character("Bruno")
    assert bruno.role == "seer" and faction(dawn.state, "Bruno") == WEREHAMSTER
    assert private_event(dawn, "Bruno", "faction_changed").data == {"faction": WEREHAMSTER}
    assert [s.keyword for s in RULES.phase(step(dawn.state).state).grammar["Bruno"]] == ["SEE"]


def test_c028_wench_visiting_a_weregerbil_becomes_a_hybrid():
    """Wench: visiting a Weregerbil makes her one too: she keeps her Wench power, takes
    the faction, and she and the Weregerbils learn each other."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "wench",
                "Chloe": "weregerbil",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "VISIT Chloe"})
    assert (
        dawn.state.character("Bruno").role == "wench" and faction(dawn.state, "Bruno") == WEREGERBIL
    )
    assert private_event(dawn, "Bruno", "team").data == {"team": WEREGERBIL, "members": ["Chloe"]}
    assert private_event(dawn, "Chloe", "newcomer").data == {"team": WEREGERBIL, "player": "Bruno"}


def test_c029_weregerbil_bites_a_villager():
    """Weregerbils: a villager-faction target becomes a plain Weregerbil."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "seer",
                "Chloe": "weregerbil",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    dawn = night(state, {"Chloe": "BITE Bruno"})
    assert (
        dawn.state.character("Bruno").role == "weregerbil"
        and faction(dawn.state, "Bruno") == WEREGERBIL
    )
    assert private_event(dawn, "Bruno", "new_role").data == {
        "role": "weregerbil",
        "faction": WEREGERBIL,
    }


def test_c030_weregerbil_bites_a_wolf_and_the_youngest_dies():
    """Weregerbils: a wolf target: the youngest (most recently made) Weregerbil dies."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "villager",
                "Chloe": "weregerbil",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "werewolf",
                "Hiro": "villager",
            }
        )
    )
    state = night(state, {"Chloe": "BITE Bruno"}).state  # Bruno is now the youngest
    state = step(state).state
    dawn = night(state, {"Chloe": "BITE Alice", "Bruno": "BITE Alice"})
    assert not alive(dawn.state, "Bruno") and dawn.state.character("Bruno").death_cause == "gerbil"
    assert alive(dawn.state, "Chloe") and alive(dawn.state, "Alice")


def test_c031_weregerbil_bite_tie_is_drawn():
    """Weregerbils: one shared bite, the most-named target, ties by seeded draw."""
    roles = {
        "Alice": "werewolf",
        "Bruno": "weregerbil",
        "Chloe": "weregerbil",
        "Dmitri": "villager",
        "Elena": "villager",
        "Farid": "villager",
        "Greta": "villager",
        "Hiro": "villager",
    }
    dawns = [
        night(to_night(game(roles, seed=seed)), {"Bruno": "BITE Dmitri", "Chloe": "BITE Elena"})
        for seed in ("a", "a", "b", "c", "d")
    ]
    bitten = [
        next(n for n in ("Dmitri", "Elena") if d.state.character(n).role == "weregerbil")
        for d in dawns
    ]
    assert bitten[0] == bitten[1]
    assert all(
        sum(d.state.character(n).role == "weregerbil" for n in ("Dmitri", "Elena")) == 1
        for d in dawns
    )


def test_c032_rabble_rousers_double_lynch():
    """Rabble Rouser: the next trial lynches both defendants without a vote, revealed
    when nominations close; Dn-vote is skipped. Once per game."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "rabble rouser",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "werewolf",
            }
        )
    )
    state = night(state, {"Bruno": "ROUSE"}).state
    closed = step(
        state, {"Bruno": "NOMINATE Alice", "Chloe": "NOMINATE Alice", "Dmitri": "NOMINATE Farid"}
    )
    assert kinds(closed.public)[:3] == ["nominations", "rabble_roused", "lynch"]
    assert not alive(closed.state, "Alice") and not alive(closed.state, "Farid")
    assert closed.state.phase_id == "N2"
    assert "ROUSE" not in [s.keyword for s in RULES.phase(closed.state).grammar["Bruno"]]


def test_c033_runoff_for_the_remaining_place():
    """Day §2: places won outright stand; a tie for the remaining place goes to one runoff
    among the tied; missing nominations are published as missing."""
    state = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "villager",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "villager",
            }
        )
    ).state
    nominated = step(
        state,
        {
            "Alice": "NOMINATE Bruno",
            "Bruno": "NOMINATE Chloe",
            "Chloe": "NOMINATE Bruno",
            "Dmitri": "NOMINATE Dmitri",
            "Elena": "NOMINATE Chloe",
            "Farid": "NOMINATE Bruno",
        },
    )
    event = public_event(nominated, "nominations").data
    assert event["missing"] == ["Greta"] and event["tally"] == {"Bruno": 3, "Chloe": 2, "Dmitri": 1}
    assert nominated.state.phase_id == "D1-vote"
    assert nominated.state.defendants == ("Bruno", "Chloe")
    tied = step(
        state,
        {
            "Alice": "NOMINATE Bruno",
            "Bruno": "NOMINATE Chloe",
            "Chloe": "NOMINATE Bruno",
            "Dmitri": "NOMINATE Dmitri",
            "Elena": "NOMINATE Chloe",
            "Farid": "NOMINATE Dmitri",
        },
    )
    assert tied.state.phase_id == "D1-runoff"
    assert public_event(tied, "runoff").data == {
        "day": 1,
        "standing": [],
        "tied": ["Bruno", "Chloe", "Dmitri"],
        "places": 2,
    }
    assert "not in the runoff" in rejects(tied.state, "Alice", "NOMINATE Elena")
    ran = step(
        tied.state,
        {"Alice": "NOMINATE Dmitri", "Bruno": "NOMINATE Dmitri", "Chloe": "NOMINATE Chloe"},
    )
    assert ran.state.defendants == ("Chloe", "Dmitri") and ran.state.phase_id == "D1-vote"


def test_c034_runoff_second_tie_is_drawn():
    """Day §2: a second tie is settled by a seeded draw."""
    state = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "villager",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    ).state
    tied = step(
        state,
        {
            "Alice": "NOMINATE Bruno",
            "Bruno": "NOMINATE Chloe",
            "Chloe": "NOMINATE Dmitri",
            "Dmitri": "NOMINATE Dmitri",
        },
    ).state
    assert tied.runoff.standing == ("Dmitri",) and set(tied.runoff.tied) == {"Bruno", "Chloe"}
    ran = step(tied, {"Alice": "NOMINATE Bruno", "Bruno": "NOMINATE Chloe"})
    draw = public_event(ran, "runoff_draw").data
    assert set(draw["among"]) == {"Bruno", "Chloe"} and len(draw["drawn"]) == 1
    assert set(ran.state.defendants) == {"Dmitri", draw["drawn"][0]}
    assert (
        step(tied, {"Alice": "NOMINATE Bruno", "Bruno": "NOMINATE Chloe"}).state.defendants
        == ran.state.defendants
    )


def test_c035_sole_defendant_and_no_lynch():
    """Day §3: one nominee is the only defendant, lynched if votes for them exceed votes
    for NO LYNCH."""
    state = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "villager",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    ).state
    trial = step(state, {"Alice": "NOMINATE Bruno"}).state
    assert trial.defendants == ("Bruno",)
    even = step(trial, {"Alice": "VOTE Bruno", "Bruno": "VOTE NO LYNCH"})
    assert alive(even.state, "Bruno") and "no_lynch" in kinds(even.public)
    more = step(trial, {"Alice": "VOTE Bruno", "Chloe": "VOTE Bruno", "Bruno": "VOTE NO LYNCH"})
    assert not alive(more.state, "Bruno")
    assert public_event(more, "votes").data["votes"] == {
        "Alice": "Bruno",
        "Chloe": "Bruno",
        "Bruno": None,
    }


def test_c036_two_defendants_tie_lynches_nobody():
    """Day §3: two defendants: the one with more votes is lynched; a tie lynches nobody;
    NO LYNCH is only a choice with one defendant."""
    state = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "villager",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    ).state
    trial = step(state, {"Alice": "NOMINATE Bruno", "Bruno": "NOMINATE Chloe"}).state
    assert "only when there is one defendant" in rejects(trial, "Alice", "VOTE NO LYNCH")
    tie = step(trial, {"Alice": "VOTE Bruno", "Bruno": "VOTE Chloe"})
    assert alive(tie.state, "Bruno") and alive(tie.state, "Chloe")
    win = step(trial, {"Alice": "VOTE Bruno", "Chloe": "VOTE Bruno", "Bruno": "VOTE Chloe"})
    assert not alive(win.state, "Bruno") and alive(win.state, "Chloe")


def test_c037_no_nominations_means_night():
    """Day §3: with no nominations at all there is no trial and night falls."""
    state = step(
        game({"Alice": "werewolf", "Bruno": "villager", "Chloe": "villager", "Dmitri": "villager"})
    ).state
    after = step(state)
    assert after.state.phase_id == "N1"
    assert kinds(after.public) == ["nominations", "no_nominations", "night_falls"]
    assert public_event(after, "nominations").data["missing"] == [
        "Alice",
        "Bruno",
        "Chloe",
        "Dmitri",
    ]


def test_c038_howler_silences_not_twice_running():
    """Howler: the target is told they are silenced for the coming day; not the player
    silenced the night before."""
    state = to_night(
        game(
            {
                "Alice": "howler",
                "Bruno": "villager",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    dawn = night(state, {"Alice": "SILENCE Bruno"})
    assert private_event(dawn, "Bruno", "silenced").data == {"day": 2}
    assert RULES.view(dawn.state, "Bruno")["me"]["silenced"] is True
    assert RULES.view(dawn.state, "Chloe")["me"]["silenced"] is False
    state = step(dawn.state).state
    assert "last night" in rejects(state, "Alice", "SILENCE Bruno")
    assert "Bruno" not in RULES.phase(state).grammar["Alice"][1].choices
    state = night(state, {}).state
    state = step(state).state
    assert RULES.parse_orders(state, "Alice", ["SILENCE Bruno"])


def test_c039_apothecary_learns_the_lynch_victims_faction():
    """Apothecary: told of each of the day's lynch victims wolf / not wolf / third faction,
    or "no lynch"."""
    roles = {
        "Alice": "werewolf",
        "Bruno": "apothecary",
        "Chloe": "villager",
        "Dmitri": "villager",
        "Elena": "villager",
        "Farid": "werewolf",
        "Greta": "villager",
    }
    state = step(game(roles)).state
    state = step(state, {"Bruno": "NOMINATE Alice"}).state
    state = step(state, {"Bruno": "VOTE Alice", "Chloe": "VOTE Alice"}).state
    dawn = night(state, {})
    assert private_event(dawn, "Bruno", "apothecary_report").data == {
        "victims": [{"player": "Alice", "verdict": "wolf"}]
    }
    dawn = night(step(dawn.state).state, {})
    assert private_event(dawn, "Bruno", "apothecary_report").data == {"victims": []}


def test_c040_masons_and_wolves_know_each_other():
    """Factions and roles: wolves learn each other at the start; Masons learn each other."""
    state = game(
        {
            "Alice": "werewolf",
            "Bruno": "mason",
            "Chloe": "mason",
            "Dmitri": "howler",
            "Elena": "villager",
        }
    )
    assert RULES.view(state, "Bruno")["me"]["teams"] == {"mason": ["Chloe"]}
    assert RULES.view(state, "Alice")["me"]["teams"] == {WOLVES: ["Dmitri"]}
    assert RULES.view(state, "Elena")["me"]["teams"] == {}


def test_c041_werehamster_wins_as_well_if_alive():
    """Victory: a Werehamster alive when the game ends wins as well."""
    state = step(
        game(
            {"Alice": "werewolf", "Bruno": "werehamster", "Chloe": "villager", "Dmitri": "villager"}
        )
    ).state
    state = step(state, {"Bruno": "NOMINATE Alice"}).state
    end = step(state, {"Bruno": "VOTE Alice", "Chloe": "VOTE Alice"})
    assert RULES.result(end.state).winners == (VILLAGE, WEREHAMSTER)
    assert RULES.result(end.state).path == "no-wolves-left"
    assert set(RULES.result(end.state).players) == {"Chloe", "Dmitri", "Bruno"}
    assert RULES.phase(end.state) is None


def test_c042_simultaneous_conditions_weregerbils_first():
    """Victory: if several hold at once, Weregerbils are checked before Villagers and
    Wolves (here gerbils 1, wolves 1, villagers 1 at dawn)."""
    state = to_night(
        game(
            {"Alice": "werewolf", "Bruno": "weregerbil", "Chloe": "villager", "Dmitri": "villager"}
        )
    )
    end = night(state, {"Alice": "KILL Dmitri"})
    assert RULES.result(end.state).winners == (WEREGERBIL,)
    assert end.public[-1].kind == "game_over"


def test_c043_wolves_win_only_at_the_start_of_a_day():
    """Victory 3: wolves win at the start of a day when living wolves ≥ living villager
    faction; a lynch that reaches parity does not end the game until dawn."""
    state = step(
        game({"Alice": "werewolf", "Bruno": "villager", "Chloe": "villager", "Dmitri": "villager"})
    ).state
    state = step(state, {"Alice": "NOMINATE Bruno"}).state
    lynched = step(state, {"Alice": "VOTE Bruno", "Chloe": "VOTE Bruno"}).state
    assert lynched.result is None and lynched.phase_id == "N1"
    end = night(lynched, {"Alice": "KILL Chloe"})
    assert (
        RULES.result(end.state).winners == (WOLVES,)
        and RULES.result(end.state).path == "wolves-parity"
    )


def test_c044_villagers_win_after_a_lynch():
    """Victory 2: the villager faction wins when no wolf is alive (checked after a lynch)."""
    state = step(
        game({"Alice": "werewolf", "Bruno": "villager", "Chloe": "villager", "Dmitri": "seer"})
    ).state
    state = step(state, {"Bruno": "NOMINATE Alice"}).state
    end = step(state, {"Bruno": "VOTE Alice", "Chloe": "VOTE Alice"})
    assert RULES.result(end.state).winners == (VILLAGE,)
    assert end.public[-1].data["roles"]["Alice"] == "werewolf"


def test_c045_host_kill(option_variant):
    """Day §5: the host kills a player for breaking the silence (or any rule), announced
    with the reason; chains follow at once; then victory is checked.

    Option-sensitive: with `reveal_roles` the announcement also names the dead player's role."""
    state = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "romantic",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        ),
        {"Bruno": "LOVE Chloe"},
    ).state
    killed = RULES.host_kill(state, "Chloe", "posted while silenced")
    assert kinds(killed.public) == ["host_kill", "also_died"]
    revealed = {"role": "villager"} if option_variant.get("reveal_roles") else {}
    assert killed.public[0].data == {
        "player": "Chloe",
        "reason": "posted while silenced",
        **revealed,
    }
    assert (
        not alive(killed.state, "Bruno") and killed.state.character("Chloe").death_cause == "host"
    )
    end = RULES.host_kill(state, "Alice", "spoke about the game outside the thread")
    assert RULES.result(end.state).winners == (VILLAGE,)


# --------------------------------------------------------------------------- options
@pytest.mark.parametrize("reveal", [False, True])
def test_c046_role_reveal_on_death(reveal):
    """Day §1: the public post announces the night's deaths by name; role reveal on death
    (option, default off)."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "seer",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            },
            reveal_roles=reveal,
        )
    )
    dawn = night(state, {"Alice": "KILL Bruno"})
    data = public_event(dawn, "dawn").data
    assert data["deaths"] == ["Bruno"]
    assert ("roles" in data) is reveal
    entry = next(p for p in RULES.view(dawn.state, None)["players"] if p["name"] == "Bruno")
    assert ("role" in entry) is reveal


@pytest.mark.parametrize("missing", ["random", "none"])
def test_c047_wench_missing_visit(missing):
    """Wench: missing VISIT (option): a random living player (default) or nobody."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "wench",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            },
            wench_missing=missing,
        )
    )
    dawn = night(state, {})
    visited = [
        name
        for name in ("Alice", "Chloe", "Dmitri", "Elena")
        if "visited" in private_kinds(dawn, name)
    ]
    assert len(visited) == (1 if missing == "random" else 0)


@pytest.mark.parametrize("setting", ["forbidden", "allowed"])
def test_c048_bodyguard_self_protection(setting):
    """Order grammar: PROTECT self forbidden (option, default forbidden)."""
    state = to_night(
        game(
            {"Alice": "werewolf", "Bruno": "bodyguard", "Chloe": "villager", "Dmitri": "villager"},
            bodyguard_self=setting,
        )
    )
    if setting == "forbidden":
        assert "yourself" in rejects(state, "Bruno", "PROTECT Bruno")
    else:
        dawn = night(state, {"Bruno": "PROTECT Bruno", "Alice": "KILL Bruno"})
        assert alive(dawn.state, "Bruno")


@pytest.mark.parametrize("tie", ["no-kill", "random"])
def test_c049_wolf_kill_tie(tie):
    """Werewolves: a tie (option): no-kill (default) or random."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "werewolf",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            },
            wolf_tie=tie,
        )
    )
    dawn = night(state, {"Alice": "KILL Chloe", "Bruno": "KILL Dmitri"})
    deaths = public_event(dawn, "dawn").data["deaths"]
    assert deaths == [] if tie == "no-kill" else deaths in (["Chloe"], ["Dmitri"])


def test_c050_runoff_deadline_is_the_schedules():
    """Day §2: the runoff round's "deadline is the schedule's `runoff` length, 12 hours
    unless the host sets it; there is no separate engine option for it": the engine has no
    such option and its public view advertises none; the runoff phase has the kind the
    schedule names, whose default length is the card's."""
    from pbp.schedule import parse_schedule

    assert not any("runoff" in name for name in RULES.options)
    with pytest.raises(GameSetupError, match="Unknown option 'runoff_hours'"):
        RULES.new_game(
            [PlayerSpec(f"P{i}") for i in range(8)], "s", with_variant({"runoff_hours": "6"})
        )
    state = step(
        game({"Alice": "werewolf", "Bruno": "villager", "Chloe": "villager", "Dmitri": "villager"})
    ).state
    assert not any("runoff" in name for name in RULES.view(state, None)["options"])
    state = step(
        state, {"Alice": "NOMINATE Bruno", "Bruno": "NOMINATE Chloe", "Chloe": "NOMINATE Dmitri"}
    ).state
    assert RULES.phase(state).kind == "runoff"
    kinds = RULES.card.phase_kinds  # the card gives the runoff its default length
    assert (
        parse_schedule(None, kinds)["runoff"] == "12h"
        and parse_schedule("runoff=6h", kinds)["runoff"] == "6h"
    )


def test_c051_wolves_target_killed_by_ninja_is_none():
    """Night: an order aimed at someone already dead that night does nothing: the wolves
    kill nobody and the Witch is told "none"."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "witch",
                "Chloe": "ninja",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    told = step(state, {"Alice": "KILL Dmitri", "Chloe": "STRIKE Dmitri"})
    assert private_event(told, "Bruno", "witch_told").data["target"] is None
    dawn = step(told.state)
    assert public_event(dawn, "dawn").data["deaths"] == ["Dmitri"]


# --------------------------------------------------------------------------- grammar
def test_c052_grammar_forms():
    """Order grammar: keyword first, case-insensitive, optional colon, `#` comments, at
    most one line of each kind; canonical text round-trips."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "witch",
                "Chloe": "villager",
                "Dmitri": "howler",
                "Elena": "villager",
            }
        )
    )
    orders = RULES.parse_orders(
        state, "Dmitri", ["# my orders", "kill: chloe", "", "Silence Elena"]
    )
    assert [str(o) for o in orders] == ["KILL Chloe", "SILENCE Elena"]
    assert RULES.parse_orders(state, "Dmitri", [str(o) for o in orders]) == orders
    with pytest.raises(OrderBlockError) as caught:
        RULES.parse_orders(
            state, "Dmitri", ["KILL Chloe", "KILL Elena", "KIL Chloe", "KILL Nobody"]
        )
    errors = caught.value.errors
    assert [type(e) for e in errors] == [IllegalOrderError, OrderSyntaxError, IllegalOrderError]
    assert "only one KILL line" in str(errors[0]) and str(errors[0]).startswith(
        'Line 2: "KILL Elena"'
    )
    assert "Did you mean KILL?" in str(errors[1])
    assert "not a player" in str(errors[2])
    assert "one of your pack" in rejects(state, "Alice", "KILL Dmitri")
    assert "exactly one player" in rejects(state, "Alice", "KILL", OrderSyntaxError)


def test_c053_receipts_reveal_nothing():
    """Order grammar: a receipt judges an order only on what its sender knows: the Seer
    may SEE anyone living, wolf or not; a wolf may KILL the Seer as any villager; a dead
    target is refused only once the death is public."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "seer",
                "Chloe": "villager",
                "Dmitri": "ninja",
                "Elena": "villager",
            }
        )
    )
    assert [str(o) for o in RULES.parse_orders(state, "Bruno", ["SEE Alice"])] == ["SEE Alice"]
    assert [str(o) for o in RULES.parse_orders(state, "Bruno", ["SEE Chloe"])] == ["SEE Chloe"]
    assert [str(o) for o in RULES.parse_orders(state, "Alice", ["KILL Bruno"])] == ["KILL Bruno"]
    struck = step(state, {"Dmitri": "STRIKE Chloe"}).state  # N1-witch is absent: no Witch
    assert struck.phase_id == "D2-nominate" and "is dead" in rejects(
        struck, "Bruno", "NOMINATE Chloe"
    )


def test_c054_orders_from_the_dead_are_refused():
    """Order grammar: only living players send orders."""
    state = to_night(
        game({"Alice": "werewolf", "Bruno": "seer", "Chloe": "villager", "Dmitri": "villager"})
    )
    state = night(state, {"Alice": "KILL Chloe"}).state
    assert "you are dead" in rejects(state, "Chloe", "NOMINATE Alice")


def test_c055_canonical_text_round_trips_for_every_order_type():
    """Order grammar: every order type's canonical text parses back to the same value."""
    from engine.werewolf import orders as o

    samples = [
        o.Love("Alice"),
        o.Nominate("Alice"),
        o.Vote("Alice"),
        o.Vote(None),
        o.Seduce("Alice"),
        o.Strike("Alice"),
        o.Rouse(),
        o.Visit("Alice"),
        o.Protect("Alice"),
        o.Kill("Alice"),
        o.Silence("Alice"),
        o.Bite("Alice"),
        o.See("Alice"),
        o.Save(),
        o.Poison("Alice"),
    ]
    for order in samples:
        assert o.parse_line(str(order), RULES.table.keywords, ["Alice", "Bruno"]) == order


def test_c056_extra_role_names_must_not_clash():
    """Extensibility: an extra role may not reuse a built-in role's name."""
    from engine.werewolf.roles.villager import ROLE

    with pytest.raises(GameSetupError, match="Two roles are called 'villager'"):
        make_ruleset(extra_roles=(ROLE,))


def test_c057_wench_killed_by_the_ninja_visits_nobody():
    """Wench: a Wench killed by the Ninja visits nobody (her bedfellow is not told and does
    not die with her)."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "wench",
                "Chloe": "ninja",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    dawn = night(state, {"Chloe": "STRIKE Bruno", "Bruno": "VISIT Dmitri"})
    assert not alive(dawn.state, "Bruno") and alive(dawn.state, "Dmitri")
    assert "visited" not in private_kinds(dawn, "Dmitri")


def test_c058_succubus_joining_the_masons():
    """Succubus: anyone who joins the Masons learns them at dawn, and they learn the
    newcomer; the seduced Mason stays in their list (a team list never shrinks except by
    a public death), and keeps knowing them."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "succubus",
                "Chloe": "mason",
                "Dmitri": "mason",
                "Elena": "villager",
                "Farid": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "SEDUCE Chloe"})
    assert private_event(dawn, "Bruno", "team").data == {"team": "mason", "members": ["Dmitri"]}
    assert private_event(dawn, "Dmitri", "newcomer").data == {"team": "mason", "player": "Bruno"}
    assert RULES.view(dawn.state, "Dmitri")["me"]["teams"] == {"mason": ["Chloe", "Bruno"]}
    assert RULES.view(dawn.state, "Chloe")["me"]["teams"] == {"mason": ["Dmitri"]}


def test_c059_game_statistics():
    """Simulation: turns are days; deaths are counted by cause; actions by order kind."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "romantic",
                "Chloe": "ninja",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "seer",
            }
        ),
        {"Bruno": "LOVE Dmitri"},
    )
    state = night(
        state, {"Chloe": "STRIKE Dmitri", "Alice": "KILL Elena", "Greta": "SEE Alice"}
    ).state
    stats = RULES.game_statistics(state)
    assert stats["turns"] == 2
    assert stats["deaths_by_cause"] == {"ninja": 1, "lover": 1, "wolves": 1}
    assert stats["actions_used"] == {"kill": 1, "love": 1, "see": 1, "strike": 1}


# --------------------------------------------------------------------------- audit additions
def test_c060_duplicate_names_are_refused_with_a_reason():
    """Setups: a game is created from distinct players; two names equal ignoring case are
    refused with a one-sentence reason (GameSetupError), never a crash."""
    names = ["Alice", "alice", "Bruno", "Chloe", "Dmitri", "Elena", "Farid", "Greta"]
    with pytest.raises(GameSetupError, match="share a name"):
        RULES.new_game([PlayerSpec(n) for n in names], "s", with_variant())


def test_c061_every_night_death_is_dated_to_the_night():
    """Ninja: the target dies at once, "publicly announced at dawn as killed in the
    night" like every other night death: the public view dates the Ninja's kill, the
    wolves' kill and the Witch's poison alike (`N1`), so no date tells the causes apart,
    even in a game with a Witch phase."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "witch",
                "Chloe": "ninja",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "villager",
                "Hiro": "werewolf",
            }
        )
    )
    dawn = night(
        state,
        {"Chloe": "STRIKE Dmitri", "Alice": "KILL Elena", "Hiro": "KILL Elena"},
        {"Bruno": "POISON Farid"},
    )
    dead = {
        p["name"]: p["died_in"] for p in RULES.view(dawn.state, None)["players"] if not p["alive"]
    }
    assert dead == {"Dmitri": "N1", "Elena": "N1", "Farid": "N1"}


def test_c062_death_chains_run_to_a_fixed_point():
    """Night: death chains (Wench, lovers) are applied until nothing changes: the wolves
    kill Chloe; her lover Bruno dies with her; the Wench slept with Bruno, so she dies
    too; and Dmitri, whom nobody touched, lives."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "romantic",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "wench",
                "Farid": "villager",
                "Greta": "villager",
            }
        ),
        {"Bruno": "LOVE Chloe"},
    )
    dawn = night(state, {"Alice": "KILL Chloe", "Elena": "VISIT Bruno"})
    causes = {name: dawn.state.character(name).death_cause for name in ("Chloe", "Bruno", "Elena")}
    assert causes == {"Chloe": "wolves", "Bruno": "lover", "Elena": "wench"}
    assert alive(dawn.state, "Dmitri")
    assert public_event(dawn, "dawn").data["deaths"] == ["Bruno", "Chloe", "Elena"]


def test_c063_weregerbils_made_the_same_night_are_equally_young():
    """Weregerbils: a wolf target: the youngest (most recently made) Weregerbil dies,
    ties by seeded draw. All effects take place at dawn, so a bitten Villager and a Wench
    who caught the disease the same night are equally young: over several seeds either
    may die, never the older Weregerbil."""
    roles = {
        "Alice": "werewolf",
        "Bruno": "villager",
        "Chloe": "weregerbil",
        "Dmitri": "wench",
        "Elena": "villager",
        "Farid": "villager",
        "Greta": "villager",
        "Hiro": "villager",
        "Ingrid": "villager",
        "Jonas": "werewolf",
    }
    victims = set()
    for seed in ("a", "b", "c", "d", "e", "f", "g", "h"):
        state = to_night(game(roles, seed=seed, wench_missing="none"))
        state = night(state, {"Chloe": "BITE Bruno", "Dmitri": "VISIT Chloe"}).state
        assert faction(state, "Bruno") == faction(state, "Dmitri") == WEREGERBIL
        assert state.character("Bruno").joined == state.character("Dmitri").joined
        state = step(state).state
        dawn = night(state, {"Chloe": "BITE Alice", "Bruno": "BITE Alice"})
        dead = [name for name in ("Bruno", "Chloe", "Dmitri") if not alive(dawn.state, name)]
        assert len(dead) == 1 and dead[0] != "Chloe"
        victims.add(dead[0])
    assert victims == {"Bruno", "Dmitri"}
