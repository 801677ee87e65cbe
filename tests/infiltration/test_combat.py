"""Conformance: Infiltration combat, room by room (rules/infiltration.md, Resolution §2)."""

from __future__ import annotations

import random

import pytest

from engine.infiltration.steps.combat import PRIORITY, resolve_combat

RENEGADE = PRIORITY["renegade"]
WARRIOR = PRIORITY["warrior"]
SNEAKER = PRIORITY["sneaker"]
HACKER = PRIORITY["hacker"]
GUARD = PRIORITY["guard"]
ENGINEER = PRIORITY["engineer"]

THREE_WARRIORS = {"A": WARRIOR, "B": WARRIOR, "C": WARRIOR}


def test_k001_priorities_of_the_classes():
    """Combat §2: "Priorities: Renegade 4, Warrior 3, Sneaker / Hacker / Guard 2, Engineer 1.\""""
    assert PRIORITY == {
        "renegade": 4,
        "warrior": 3,
        "sneaker": 2,
        "hacker": 2,
        "guard": 2,
        "engineer": 1,
    }


# ----------------------------------------------------------- the source's five examples
def test_k002_source_example_1_two_attackers_overwhelm_c():
    """Combat, source example 1 (all Warriors): A kills C; B kills C; C kills A, B — Result: C dies."""
    attacks = {"A": {"C"}, "B": {"C"}, "C": {"A", "B"}}
    assert resolve_combat(THREE_WARRIORS, attacks) == {"C"}


def test_k003_source_example_2_b_and_c_die():
    """Combat, source example 2 (all Warriors): A kills B, C; B kills C; C kills A, B —
    Result: B, C die."""
    attacks = {"A": {"B", "C"}, "B": {"C"}, "C": {"A", "B"}}
    assert resolve_combat(THREE_WARRIORS, attacks) == {"B", "C"}


def test_k004_source_example_3_all_mutual_nobody_dies():
    """Combat, source example 3 (all Warriors): A kills B, C; B kills A, C; C kills A, B —
    Result: No one dies."""
    attacks = {"A": {"B", "C"}, "B": {"A", "C"}, "C": {"A", "B"}}
    assert resolve_combat(THREE_WARRIORS, attacks) == set()


def test_k005_source_example_4_cycle_everyone_dies():
    """Combat, source example 4 (all Warriors): A kills B; B kills C; C kills A —
    Result: Everyone dies."""
    attacks = {"A": {"B"}, "B": {"C"}, "C": {"A"}}
    assert resolve_combat(THREE_WARRIORS, attacks) == {"A", "B", "C"}


def test_k006_source_example_5_b_and_c_die():
    """Combat, source example 5 (all Warriors): A kills B, C; B kills C; C kills B —
    Result: C and B die."""
    attacks = {"A": {"B", "C"}, "B": {"C"}, "C": {"B"}}
    assert resolve_combat(THREE_WARRIORS, attacks) == {"B", "C"}


# ----------------------------------------------------------------------- guards
def test_k007_two_guards_and_a_hacker():
    """Combat §2: guards attack every living non-guard except Sneakers and Renegades.
    Two guards and a Hacker who attacks both: the Hacker dies (two attackers who do not
    attack each other), both guards live."""
    dead = resolve_combat(
        {"guard A": GUARD, "guard B": GUARD, "hale": HACKER},
        {"guard A": {"hale"}, "guard B": {"hale"}, "hale": {"guard A", "guard B"}},
    )
    assert dead == {"hale"}


def test_k008_two_warriors_gang_up_on_a_guard():
    """Combat, source: "you can kill guards by ganging up on them." Two Warriors attack a guard
    that attacks both: the Warriors strike in tier 3, the guard dies before it acts."""
    dead = resolve_combat(
        {"guard C": GUARD, "ann": WARRIOR, "bo": WARRIOR},
        {"guard C": {"ann", "bo"}, "ann": {"guard C"}, "bo": {"guard C"}},
    )
    assert dead == {"guard C"}


# ----------------------------------------------------------------- mixed tiers
def test_k009_renegade_kills_first():
    """Combat §2: tiers go from the highest priority down. A Renegade (4) attacks a
    Warrior (3) who attacks the Renegade: the Warrior dies in tier 4 and never strikes."""
    dead = resolve_combat({"ren": RENEGADE, "war": WARRIOR}, {"ren": {"war"}, "war": {"ren"}})
    assert dead == {"war"}


def test_k010_warrior_killed_by_renegade_does_not_act():
    """Combat §2: "Characters killed in a tier do not act in lower tiers." The Renegade
    kills the Warrior, whose attack on the Hacker never happens."""
    dead = resolve_combat(
        {"ren": RENEGADE, "war": WARRIOR, "hack": HACKER}, {"ren": {"war"}, "war": {"hack"}}
    )
    assert dead == {"war"}


def test_k011_engineer_cannot_parry_a_warrior():
    """Combat §2 (a): "only an equal can parry: a target of another priority never cancels
    an attack". A Warrior and an Engineer attack each other: the Engineer dies in tier 3."""
    dead = resolve_combat({"war": WARRIOR, "eng": ENGINEER}, {"war": {"eng"}, "eng": {"war"}})
    assert dead == {"eng"}


def test_k012_only_an_equal_can_parry():
    """Combat §2 (a): a Warrior attacking a Hacker who attacks back kills the Hacker in
    tier 3; two Hackers attacking each other in tier 2 both live."""
    assert resolve_combat({"war": WARRIOR, "hack": HACKER}, {"war": {"hack"}, "hack": {"war"}}) == {
        "hack"
    }
    assert resolve_combat({"h1": HACKER, "h2": HACKER}, {"h1": {"h2"}, "h2": {"h1"}}) == set()


def test_k013_lower_tier_strikes_survivors_of_higher_tiers():
    """Combat §2: each tier acts "against targets still alive". The Warrior kills the
    Sneaker in tier 3; in tier 2 the Hacker kills the Warrior (who cannot parry a lower
    tier), and its attack on the already dead Sneaker lands on nobody."""
    dead = resolve_combat(
        {"war": WARRIOR, "hack": HACKER, "sneak": SNEAKER},
        {"war": {"sneak"}, "hack": {"war", "sneak"}},
    )
    assert dead == {"war", "sneak"}


def test_k014_a_lower_priority_target_dies_before_its_own_tier():
    """Combat §2 (a): a Sneaker who attacks a Warrior back does not parry the Warrior,
    and being dead it never strikes in its own tier: only the Sneaker dies."""
    dead = resolve_combat({"war": WARRIOR, "sneak": SNEAKER}, {"war": {"sneak"}, "sneak": {"war"}})
    assert dead == {"sneak"}


# ------------------------------------------------------------- the pair rule (b)
def test_k015_three_attackers_one_non_mutual_pair_kills():
    """Combat §2 (b): "With three or more such attackers every pair is checked; one pair
    that is not mutual kills." X, Y, Z attack T, who attacks all three; X and Y attack
    each other mutually, and so do Y and Z, but X and Z do not: T dies."""
    dead = resolve_combat(
        {"T": WARRIOR, "X": WARRIOR, "Y": WARRIOR, "Z": WARRIOR},
        {"T": {"X", "Y", "Z"}, "X": {"T", "Y"}, "Y": {"T", "X", "Z"}, "Z": {"T", "Y"}},
    )
    assert "T" in dead


def test_k016_three_attackers_all_mutual_pairs_cannot_kill_by_numbers():
    """Combat §2 (b): three attackers of T who all attack each other mutually, and whom T
    parries one by one, do not kill T; nobody dies (every attack is parried)."""
    dead = resolve_combat(
        {"T": WARRIOR, "X": WARRIOR, "Y": WARRIOR, "Z": WARRIOR},
        {"T": {"X", "Y", "Z"}, "X": {"T", "Y", "Z"}, "Y": {"T", "X", "Z"}, "Z": {"T", "X", "Y"}},
    )
    assert dead == set()


def test_k017_two_attackers_kill_even_a_target_who_attacks_both():
    """Combat, source: "If a player has 2 people trying to kill him, and neither are trying to kill
    the other, the targeted player dies, even if he attempts to kill both"."""
    dead = resolve_combat(
        {"T": HACKER, "X": HACKER, "Y": HACKER}, {"T": {"X", "Y"}, "X": {"T"}, "Y": {"T"}}
    )
    assert dead == {"T"}


def test_k018_two_attackers_of_a_higher_priority_target_do_not_pair():
    """Combat §2 (b): attackers "of priority p" count in one tier: a Warrior attacked by a
    Sneaker (tier 2) and by a Warrior (tier 3) whom it attacks back survives tier 3 by
    parrying, then dies in tier 2 to the Sneaker, whom it did not attack."""
    dead = resolve_combat(
        {"W": WARRIOR, "V": WARRIOR, "S": SNEAKER}, {"V": {"W"}, "W": {"V"}, "S": {"W"}}
    )
    assert dead == {"W"}


# -------------------------------------------------------- same-tier simultaneity
def test_k019_killed_in_the_same_tier_still_act():
    """Combat §2: "characters killed in the same tier still carry out their own attacks of
    that tier." A kills B; B, dying in the same tier, still kills C."""
    dead = resolve_combat(THREE_WARRIORS, {"A": {"B"}, "B": {"C"}})
    assert dead == {"B", "C"}


def test_k020_nobody_attacks_nobody_dies():
    """Combat §2: a room where no attack is declared has no deaths."""
    assert resolve_combat(THREE_WARRIORS, {}) == set()
    assert resolve_combat(THREE_WARRIORS, {"A": set(), "B": []}) == set()
    assert resolve_combat({}, {}) == set()


# ----------------------------------------------------------------- invalid input
@pytest.mark.parametrize(
    "priorities, attacks, message",
    [
        ({"A": WARRIOR}, {"Z": {"A"}}, "'Z' is not a combatant"),
        ({"A": WARRIOR}, {"A": {"Z"}}, "'Z', who is not a combatant"),
        ({"A": WARRIOR}, {"A": {"A"}}, "cannot attack themself"),
        ({"A": "3", "B": WARRIOR}, {}, "must be an integer"),
        ({"A": 3.0, "B": WARRIOR}, {}, "must be an integer"),
        ({"A": True, "B": WARRIOR}, {}, "must be an integer"),
        ({"A": WARRIOR, "B": WARRIOR}, {"A": "B"}, "collection of names"),
    ],
)
def test_k021_invalid_input_raises_value_error(priorities, attacks, message):
    """Combat, the resolver's input (docs/design.md: Engine contract): "Invalid input (unknown name, self-attack) raises ValueError"; so do a
    non-integer priority and a bare string where a collection of targets belongs."""
    with pytest.raises(ValueError, match=message):
        resolve_combat(priorities, attacks)


# ----------------------------------------------------------------- properties
def _random_room(rng: random.Random) -> tuple[dict[str, int], dict[str, set[str]]]:
    names = [f"p{i}" for i in range(rng.randint(1, 7))]
    priorities = {name: rng.choice((1, 2, 2, 3, 3, 4)) for name in names}
    attacks = {
        name: {other for other in names if other != name and rng.random() < 0.4}
        for name in names
        if rng.random() < 0.8
    }
    return priorities, attacks


def _shuffled(mapping: dict, rng: random.Random) -> dict:
    keys = list(mapping)
    rng.shuffle(keys)
    return {key: mapping[key] for key in keys}


def test_k022_result_does_not_depend_on_dict_order():
    """Combat §2: attacks in a tier are simultaneous, so the order in which combatants or
    attacks are listed cannot change who dies (2,000 seeded random rooms)."""
    rng = random.Random(20240601)
    for _ in range(2000):
        priorities, attacks = _random_room(rng)
        expected = resolve_combat(priorities, attacks)
        shuffled_attacks = {
            name: rng.sample(sorted(targets), len(targets))
            for name, targets in _shuffled(attacks, rng).items()
        }
        assert resolve_combat(_shuffled(priorities, rng), shuffled_attacks) == expected


def test_k023_a_combatant_nobody_attacks_never_dies():
    """Combat §2: only an attack kills; whoever is attacked by nobody survives combat, and
    everyone who dies was attacked by someone (2,000 seeded random rooms)."""
    rng = random.Random(7)
    for _ in range(2000):
        priorities, attacks = _random_room(rng)
        attacked = set().union(*attacks.values()) if attacks else set()
        dead = resolve_combat(priorities, attacks)
        assert dead <= attacked
        assert dead <= set(priorities)
