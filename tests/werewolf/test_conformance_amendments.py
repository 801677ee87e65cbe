"""Werewolf conformance suite, continued (rules/werewolf.md as amended): secrets at the
edges — inherited memory, team lists, double lynches, host kills during a night and a
trial, the Witch's record, a split pack, and the remaining amendments. One numbered
scenario per test; the rule it checks is quoted in its docstring. Numbers are stable."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import GameSetupError, IllegalOrderError, OrderBlockError, PlayerSpec
from engine.werewolf.characters import faction_of
from engine.werewolf.model import WEREGERBIL
from engine.werewolf.setups import setup_for
from pbp.game.standing_orders import standing_orders
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
    vampire_rules,
    with_variant,
)

pytestmark = pytest.mark.usefixtures(
    "option_variant"
)  # each case under each option set (conftest.py)


def rejects(state, player, line, rules=RULES):
    with pytest.raises(OrderBlockError) as caught:
        rules.parse_orders(state, player, [line])
    assert isinstance(caught.value.errors[0], IllegalOrderError), caught.value
    return str(caught.value.errors[0])


def accepted(state, player, text, rules=RULES):
    return rules.parse_orders(state, player, text.splitlines())


def resolve_after_kill(state, orders, victim, reason="left the game", rules=RULES):
    """Orders accepted, then the host removes `victim`, then the deadline: the stored
    blocks are read again the way the moderator reads them (pbp.game.standing_orders)."""
    blocks = {player: text.splitlines() for player, text in orders.items()}
    for player, lines in blocks.items():
        rules.parse_orders(state, player, lines)  # each block was accepted before the kill
    removal = rules.host_kill(state, victim, reason)
    killed = removal.state
    parsed = standing_orders(rules, killed, rules.phase(killed), blocks)
    return removal, rules.resolve(killed, parsed)


# --------------------------------------------------------------------------- Succubus
def test_c064_succubus_does_not_inherit_the_howlers_last_silence():
    """Succubus: "She does not inherit the Howler's last target: the "not two nights in a
    row" rule is about her own silences, and nothing of another player's past orders is
    ever shown to her." The Howler silences Chloe; the next night the Succubus seduces him;
    the night after she may silence Chloe, and her view never shows his target."""
    state = to_night(
        game(
            {
                "Alice": "howler",
                "Bruno": "succubus",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "werewolf",
            }
        )
    )
    state = step(night(state, {"Alice": "SILENCE Chloe"}).state).state
    state = step(night(state, {"Bruno": "SEDUCE Alice", "Alice": "SILENCE Dmitri"}).state).state
    assert state.character("Bruno").role == "howler"
    assert RULES.view(state, "Bruno")["me"]["role_state"] == {"last_silenced": None}
    assert [str(o) for o in accepted(state, "Bruno", "SILENCE Chloe")] == ["SILENCE Chloe"]
    silence = next(
        spec for spec in RULES.phase(state).grammar["Bruno"] if spec.keyword == "SILENCE"
    )
    assert "Chloe" in silence.choices


def test_c065_succubus_inherits_spent_potions():
    """Succubus: "the Succubus acts in her new role from the next night and inherits its
    state (potions spent, rousing spent)". The Witch poisons, is seduced, and the Succubus
    finds POISON spent and SAVE still hers."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "succubus",
                "Chloe": "witch",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "villager",
                "Hiro": "werewolf",
            }
        )
    )
    state = step(night(state, {}, {"Chloe": "POISON Dmitri"}).state).state
    state = step(
        night(state, {"Bruno": "SEDUCE Chloe", "Alice": "KILL Elena", "Hiro": "KILL Elena"}).state
    ).state
    told = step(state, {"Alice": "KILL Farid", "Hiro": "KILL Farid"}).state
    assert [spec.keyword for spec in RULES.phase(told).grammar["Bruno"]] == ["SAVE"]
    assert RULES.view(told, "Bruno")["me"]["role_state"] == {
        "poison_used": True,
        "save_used": False,
    }


# --------------------------------------------------------------------------- team lists
def test_c066_a_bitten_mason_stays_in_his_partners_list():
    """Masons: "A team list never shrinks except by a public death: a Mason bitten into a
    Weregerbil still appears in his partners' Mason list (they must not learn of the
    bite)." The partner's view and inbox are those of a night without the bite."""
    lineup = {
        "Alice": "werewolf",
        "Bruno": "weregerbil",
        "Chloe": "mason",
        "Dmitri": "mason",
        "Elena": "villager",
        "Farid": "villager",
        "Greta": "villager",
    }
    state = to_night(game(lineup))
    bitten = night(state, {"Bruno": "BITE Chloe"})
    quiet = night(state, {"Bruno": "BITE Elena"})
    assert faction_of(bitten.state.character("Chloe"), RULES.table.by_name) == WEREGERBIL
    assert RULES.view(bitten.state, "Dmitri")["me"]["teams"] == {"mason": ["Chloe"]}
    assert RULES.view(bitten.state, "Dmitri") == RULES.view(quiet.state, "Dmitri")
    assert bitten.private.get("Dmitri") == quiet.private.get("Dmitri")


def test_c067_a_seduced_weregerbil_stays_in_the_weregerbils_list():
    """Masons: "The same holds for every team list a player is shown": a Weregerbil
    seduced into a Villager stays in the other Weregerbils' list until a public death."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "succubus",
                "Chloe": "weregerbil",
                "Dmitri": "weregerbil",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "villager",
                "Hiro": "villager",
            }
        )
    )
    dawn = night(state, {"Bruno": "SEDUCE Chloe"})
    assert RULES.view(dawn.state, "Dmitri")["me"]["teams"] == {WEREGERBIL: ["Chloe", "Bruno"]}
    state = step(dawn.state, {"Dmitri": "NOMINATE Chloe", "Elena": "NOMINATE Chloe"}).state
    state = step(
        state, {"Dmitri": "VOTE Chloe", "Elena": "VOTE Chloe", "Farid": "VOTE Chloe"}
    ).state
    assert not alive(state, "Chloe")
    assert RULES.view(state, "Dmitri")["me"]["teams"] == {WEREGERBIL: ["Bruno"]}


# --------------------------------------------------------------------------- double lynch
def test_c068_a_double_lynch_of_two_lovers_is_two_lynches():
    """Day §3: "A double lynch is announced as two lynches, in alphabetical order,
    whatever bonds join the two (two lovers lynched together are both "lynched", never one
    "lynched" and the other "died of grief")."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Zoe": "romantic",
                "Bruno": "rabble rouser",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "werewolf",
            }
        ),
        {"Zoe": "LOVE Chloe"},
    )
    state = night(state, {"Bruno": "ROUSE"}).state
    end = step(
        state,
        {
            "Alice": "NOMINATE Zoe",
            "Bruno": "NOMINATE Chloe",
            "Dmitri": "NOMINATE Zoe",
            "Elena": "NOMINATE Chloe",
        },
    )
    lynches = [event.data["player"] for event in end.public if event.kind in ("lynch", "also_died")]
    assert lynches == ["Chloe", "Zoe"]
    assert [e.kind for e in end.public if e.data.get("player") in ("Chloe", "Zoe")] == [
        "lynch",
        "lynch",
    ]
    assert {end.state.character(n).death_cause for n in ("Chloe", "Zoe")} == {"lynch"}


# --------------------------------------------------------------------------- host kills at night
def witch_and_ninja_night():
    return to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "witch",
                "Chloe": "ninja",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "wench",
                "Hiro": "werewolf",
            }
        )
    )


def test_c069_the_ninjas_victim_removed_by_the_host_is_not_announced_again():
    """Host kill, during a night: "the removed player is not announced again at dawn,
    and the cause stays the host's. The death is dated `Nn`." The Ninja struck Dmitri;
    in N1-witch the host removes him: dawn does not name him, and his cause is the host."""
    state = step(witch_and_ninja_night(), {"Chloe": "STRIKE Dmitri", "Greta": "VISIT Farid"}).state
    removal = RULES.host_kill(state, "Dmitri", "left the game")
    assert kinds(removal.public) == ["host_kill"]
    dawn = step(removal.state)
    assert public_event(dawn, "dawn").data["deaths"] == []
    dmitri = dawn.state.character("Dmitri")
    assert (dmitri.death_cause, dmitri.death_phase) == ("host", "N1")


def test_c070_the_wenchs_bedfellow_dies_at_dawn_not_at_the_removal():
    """Host kill, during a night: "is published at once as a removal by the host and
    nothing more: its chains (Wench, lovers) are applied at dawn with the night's other
    deaths". The host removes the Wench in N1-witch: her bedfellow lives on until dawn."""
    state = step(witch_and_ninja_night(), {"Greta": "VISIT Farid"}).state
    removal = RULES.host_kill(state, "Greta", "broke the silence")
    assert kinds(removal.public) == ["host_kill"] and alive(removal.state, "Farid")
    assert RULES.view(removal.state, None)["living"].count("Farid") == 1
    dawn = step(removal.state)
    assert public_event(dawn, "dawn").data["deaths"] == ["Farid"]
    assert dawn.state.character("Farid").death_cause == "wench"


def test_c071_a_wench_whose_bed_was_removed_visits_nobody():
    """Host kill, during a night: "An order aimed at the removed player keeps its meaning
    and does nothing: the Wench who chose them visits nobody and survives" — she is not
    sent to a random bed. Greta's VISIT Farid stands after the host removes Farid."""
    for seed in ("a", "b", "c", "d"):
        state = to_night(
            game(
                {
                    "Alice": "werewolf",
                    "Bruno": "villager",
                    "Chloe": "villager",
                    "Dmitri": "villager",
                    "Elena": "villager",
                    "Farid": "villager",
                    "Greta": "wench",
                    "Hiro": "werewolf",
                },
                seed=seed,
            )
        )
        _, dawn = resolve_after_kill(
            state, {"Greta": "VISIT Farid", "Alice": "KILL Bruno", "Hiro": "KILL Bruno"}, "Farid"
        )
        assert alive(dawn.state, "Greta")
        assert not any(
            "visited" in private_kinds(dawn, name)
            for name in ("Alice", "Bruno", "Chloe", "Dmitri", "Elena", "Hiro")
        )


def test_c072_a_romantic_whose_choice_was_removed_is_bound_to_nobody():
    """Host kill, during a night: "the Romantic who chose them is bound to nobody" (no
    random lover replaces the choice)."""
    for seed in ("a", "b", "c", "d"):
        state = game(
            {
                "Alice": "werewolf",
                "Bruno": "romantic",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            },
            seed=seed,
        )
        _, dawn = resolve_after_kill(state, {"Bruno": "LOVE Chloe"}, "Chloe")
        assert dawn.state.lovers == () and RULES.view(dawn.state, "Bruno")["me"]["lover"] is None
        assert "lovers" not in private_kinds(dawn, "Bruno")


def test_c073_a_save_of_a_removed_target_is_not_spent():
    """Host kill, during a night: "a Witch's `SAVE` of a removed target saves nobody and
    is not spent". The wolves chose Elena; the host removes her in N1-witch; the Witch's
    SAVE stands, does nothing, and she keeps the potion."""
    state = step(witch_and_ninja_night(), {"Alice": "KILL Elena", "Hiro": "KILL Elena"}).state
    _, dawn = resolve_after_kill(state, {"Bruno": "SAVE"}, "Elena")
    assert alive(dawn.state, "Bruno") and dawn.state.character("Bruno").state("save_used") is False
    assert RULES.view(dawn.state, "Bruno")["me"]["role_state"]["save_used"] is False


def test_c074_a_host_kill_in_the_witch_phase_is_dated_to_the_night():
    """Host kill, during a night (in `Nn` or `Nn-witch`): "The death is dated `Nn`", so
    the date tells nothing of the Witch phase."""
    state = step(witch_and_ninja_night()).state
    assert state.phase_id == "N1-witch"
    removal = RULES.host_kill(state, "Elena", "left the game")
    entry = next(p for p in RULES.view(removal.state, None)["players"] if p["name"] == "Elena")
    assert entry["died_in"] == "N1"


def test_c075_a_lover_removed_at_night_takes_the_other_at_dawn():
    """Host kill, during a night: its chains "are applied at dawn with the night's other
    deaths": the removed player's lover lives until dawn, then dies announced at dawn."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "romantic",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Hiro": "werewolf",
            }
        ),
        {"Bruno": "LOVE Chloe"},
    )
    removal = RULES.host_kill(state, "Chloe", "left the game")
    assert kinds(removal.public) == ["host_kill"] and alive(removal.state, "Bruno")
    dawn = step(removal.state)
    assert public_event(dawn, "dawn").data["deaths"] == ["Bruno"]
    assert dawn.state.character("Bruno").death_cause == "lover"


# --------------------------------------------------------------------------- host kill of a defendant
def trial_of_chloe_and_dmitri():
    state = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "villager",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "werewolf",
            }
        )
    ).state
    state = step(
        state,
        {
            "Alice": "NOMINATE Chloe",
            "Bruno": "NOMINATE Chloe",
            "Elena": "NOMINATE Dmitri",
            "Farid": "NOMINATE Dmitri",
            "Chloe": "NOMINATE Dmitri",
        },
    ).state
    assert state.defendants == ("Chloe", "Dmitri")
    return state


def test_c076_a_host_kill_of_a_defendant_leaves_a_one_defendant_trial():
    """Host kill: "of a defendant during `Dn-vote` leaves a one-defendant trial (`VOTE NO
    LYNCH` becomes a choice, and the form no longer offers the removed defendant)"; a vote
    cast for the removed defendant stands and counts for nobody."""
    state = trial_of_chloe_and_dmitri()
    _, end = resolve_after_kill(state, {"Alice": "VOTE Chloe", "Bruno": "VOTE Dmitri"}, "Dmitri")
    killed = RULES.host_kill(state, "Dmitri", "left the game").state
    assert RULES.phase(killed).grammar["Elena"][0].choices == ("Chloe", "NO LYNCH")
    assert [str(o) for o in accepted(killed, "Elena", "VOTE NO LYNCH")] == ["VOTE NO LYNCH"]
    assert "not on trial" in rejects(killed, "Elena", "VOTE Dmitri")
    votes = public_event(end, "votes").data
    assert votes["votes"] == {"Alice": "Chloe", "Bruno": "Dmitri"} and votes["tally"] == {
        "Chloe": 1
    }
    assert not alive(end.state, "Chloe")  # one vote against no NO LYNCH vote

    second = RULES.host_kill(state, "Dmitri", "left the game").state
    parsed = {
        p: accepted(second, p, t)
        for p, t in {
            "Alice": "VOTE Chloe",
            "Bruno": "VOTE NO LYNCH",
            "Elena": "VOTE NO LYNCH",
        }.items()
    }
    assert alive(RULES.resolve(second, parsed).state, "Chloe")


def test_c077_a_host_kill_of_both_defendants_ends_the_day():
    """Host kill: "of both ends the day with no lynch"."""
    state = trial_of_chloe_and_dmitri()
    state = RULES.host_kill(state, "Dmitri", "left the game").state
    end = RULES.host_kill(state, "Chloe", "left the game")
    assert kinds(end.public) == ["host_kill", "no_lynch", "night_falls"]
    assert end.state.phase_id == "N1"


# --------------------------------------------------------------------------- private records
def test_c078_the_witchs_report_stays_in_her_record():
    """Night: "Private reports go to each affected player at dawn, and stay in that
    player's record (the Witch's "the wolves chose …" included)"."""
    state = step(witch_and_ninja_night(), {"Alice": "KILL Elena", "Hiro": "KILL Elena"}).state
    dawn = step(state)
    inbox = RULES.view(dawn.state, "Bruno")["me"]["inbox"]
    assert {"kind": "witch_told", "data": {"night": 1, "target": "Elena"}} in inbox


# --------------------------------------------------------------------------- split pack
def test_c079_a_kill_of_the_ninjas_victim_counts_and_the_pack_is_told():
    """Werewolves: "`KILL`s aimed at a player who is dead by the time the wolves act (the
    Ninja's victim, a host kill) still count in the tally and kill nobody: a 1–1 split
    between the Ninja's victim and someone else is a tie, not a kill of the other ...
    every living wolf is told at dawn what the pack's `KILL`s were and, when they did not
    agree, that nobody was killed because of it.\""""
    state = witch_and_ninja_night()
    dawn = night(state, {"Chloe": "STRIKE Dmitri", "Alice": "KILL Dmitri", "Hiro": "KILL Elena"})
    assert public_event(dawn, "dawn").data["deaths"] == ["Dmitri"] and alive(dawn.state, "Elena")
    for wolf in ("Alice", "Hiro"):
        assert private_event(dawn, wolf, "pack_kills").data == {
            "night": 1,
            "kills": {"Alice": "Dmitri", "Hiro": "Elena"},
            "tie": True,
            "target": None,
        }


def test_c080_the_host_sees_a_split_pack(option_variant):
    """Werewolves: the wolves agree through their team channel; the host is told when the
    pack's KILLs, as they stand, are split (host-only; players' views are unchanged).

    Option-sensitive: the note says what a split does under `wolf_tie` (nobody is killed, or
    a draw picks one of the targets)."""
    state = witch_and_ninja_night()
    split = {
        "Alice": accepted(state, "Alice", "KILL Dmitri"),
        "Hiro": accepted(state, "Hiro", "KILL Elena"),
    }
    notes = RULES.host_notes(state, split)
    outcome = (
        "a draw picks one of them"
        if option_variant.get("wolf_tie") == "random"
        else "nobody is killed"
    )
    assert notes == (
        f"The pack is split (Alice → Dmitri; Hiro → Elena): as things stand {outcome}.",
    )
    agreed = {
        "Alice": accepted(state, "Alice", "KILL Elena"),
        "Hiro": accepted(state, "Hiro", "KILL Elena"),
    }
    assert RULES.host_notes(state, agreed) == ()


# --------------------------------------------------------------------------- the rest
def test_c081_bitten_and_drained_the_bite_wins():
    """Weregerbils: "A villager both bitten and drained (Vampire extension) in one night:
    the step earlier in the night-order table wins (the bite ...), and the other faction
    is told at dawn that its target was beyond its reach.\""""
    rules = vampire_rules()
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "weregerbil",
                "Chloe": "vampire",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "werewolf",
            },
            rules=rules,
        ),
        rules=rules,
    )
    dawn = night(state, {"Bruno": "BITE Dmitri", "Chloe": "DRAIN Dmitri"}, rules=rules)
    assert dawn.state.character("Dmitri").role == "weregerbil"
    assert private_event(dawn, "Chloe", "beyond_reach").data == {"night": 1, "target": "Dmitri"}
    assert "beyond_reach" not in private_kinds(dawn, "Bruno")


def test_c082_the_apothecary_never_learns_which_third_faction():
    """Seer: "The Apothecary learns the same three answers (never which third faction)":
    a lynched Werehamster is "third faction" to her."""
    roles = {
        "Alice": "werewolf",
        "Bruno": "apothecary",
        "Chloe": "werehamster",
        "Dmitri": "villager",
        "Elena": "villager",
        "Farid": "werewolf",
        "Greta": "villager",
    }
    state = step(game(roles)).state
    state = step(state, {"Bruno": "NOMINATE Chloe"}).state
    state = step(state, {"Bruno": "VOTE Chloe", "Dmitri": "VOTE Chloe"}).state
    dawn = night(state, {})
    assert private_event(dawn, "Bruno", "apothecary_report").data == {
        "victims": [{"player": "Chloe", "verdict": "third faction"}]
    }


@pytest.mark.parametrize("repeat", ["allowed", "forbidden"])
def test_c083_bodyguard_repeat_protection_option(repeat):
    """Bodyguard: "Protecting the same player on consecutive nights (option): allowed
    (default) or forbidden.\""""
    assert RULES.options["bodyguard_repeat"].default == "allowed"
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "bodyguard",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
            },
            bodyguard_repeat=repeat,
        )
    )
    state = step(night(state, {"Bruno": "PROTECT Chloe"}).state).state
    if repeat == "allowed":
        assert [str(o) for o in accepted(state, "Bruno", "PROTECT Chloe")] == ["PROTECT Chloe"]
    else:
        assert "last night" in rejects(state, "Bruno", "PROTECT Chloe")
        state = step(night(state, {"Bruno": "PROTECT Dmitri"}).state).state
        assert [str(o) for o in accepted(state, "Bruno", "PROTECT Chloe")] == ["PROTECT Chloe"]


def test_c084_a_ninja_under_14_players_is_accepted_with_a_warning():
    """Ninja: "The Ninja is meant for 14 players or more: a host role list with a Ninja
    under 14 players is accepted with a warning.\""""
    small = RULES.new_game(
        [PlayerSpec(f"P{i}") for i in range(8)],
        "s",
        with_variant({"roles": "werewolf,werewolf,ninja,seer,villager,villager,villager,villager"}),
    )
    (warning,) = RULES.setup_warnings(small)
    assert "Ninja" in warning and "14" in warning
    assert (
        RULES.setup_warnings(
            RULES.new_game([PlayerSpec(f"P{i}") for i in range(20)], "s", with_variant())
        )
        == ()
    )


def test_c085_sizes_above_20():
    """Sizes: "Above 20 (up to 40): the 20-player list plus one Werewolf for every further
    4 players, the rest Villagers.\""""
    twenty = Counter(setup_for(20, "romantic"))
    assert Counter(setup_for(23, "romantic")) == twenty + Counter(villager=3)
    assert Counter(setup_for(24, "romantic")) == twenty + Counter(werewolf=1, villager=3)
    assert Counter(setup_for(40, "romantic")) == twenty + Counter(werewolf=5, villager=15)
    with pytest.raises(GameSetupError, match="up to 40 players"):
        setup_for(41, "romantic")


@pytest.mark.parametrize("loses", [True, False])
def test_c086_modkill_loses(loses):
    """Victory: "A player removed by the host for breaking the rules (`modkill`) never
    wins (option: `modkill_loses`, default on); a player removed for another reason ... is
    credited like any other"."""
    assert RULES.options["modkill_loses"].default is True
    state = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "villager",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            },
            modkill_loses=loses,
        )
    ).state
    state = RULES.host_kill(state, "Bruno", "posted while silenced").state
    state = RULES.host_kill(state, "Chloe", "moved away", breach=False).state
    end = RULES.host_kill(state, "Alice", "posted while silenced")
    players = RULES.result(end.state).players
    assert "Chloe" in players and "Dmitri" in players
    assert ("Bruno" in players) is (not loses)


def test_c087_a_hybrid_is_revealed_by_both_parts():
    """Sizes: "With `reveal_roles=on`, a hybrid is revealed by both parts
    ("Wench-Weregerbil")."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "weregerbil",
                "Chloe": "wench",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "werewolf",
            },
            reveal_roles=True,
        )
    )
    state = step(night(state, {"Chloe": "VISIT Bruno"}).state).state
    dawn = night(state, {"Alice": "KILL Chloe", "Greta": "KILL Chloe", "Chloe": "VISIT Dmitri"})
    assert public_event(dawn, "dawn").data["roles"]["Chloe"] == "wench-weregerbil"
    entry = next(p for p in RULES.view(dawn.state, None)["players"] if p["name"] == "Chloe")
    assert entry["role"] == "wench-weregerbil"


def test_c088_seduced_and_killed_the_same_night_is_told_in_the_last_report():
    """Succubus: "Roles swap when the seduction resolves ... the target becomes a
    Villager"; reports of the dead: a player who dies in the night gets that night's reports
    as their last one. Chloe, the Seer, is seduced and eaten the same night: her last report
    says she was seduced, so her view (a dead Villager) shows nothing she was not told."""
    state = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "succubus",
                "Chloe": "seer",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "villager",
                "Hiro": "werewolf",
            }
        )
    )
    dawn = night(state, {"Bruno": "SEDUCE Chloe", "Alice": "KILL Chloe", "Hiro": "KILL Chloe"})
    assert not alive(dawn.state, "Chloe") and dawn.state.character("Chloe").role == "villager"
    assert "seduced" in [event.kind for event in dawn.private["Chloe"]]
    assert RULES.view(dawn.state, "Chloe")["me"]["role"] == "villager"


def test_c089_a_removal_in_the_witch_phase_keeps_the_published_role():
    """Host kill, during a night: "is published at once as a removal by the host and
    nothing more"; with `reveal_roles=on` the role shown then is the one shown for good.
    Bruno, the Succubus, seduces Alice, the Howler, in N1; the host removes Alice in
    N1-witch, published as the Howler; at dawn she is still shown as the Howler, so the
    seduction does not leak."""
    state = to_night(
        game(
            {
                "Alice": "howler",
                "Bruno": "succubus",
                "Chloe": "witch",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "werewolf",
                "Hiro": "werewolf",
            },
            reveal_roles="on",
        )
    )
    witch_phase = step(
        state, {"Bruno": "SEDUCE Alice", "Greta": "KILL Dmitri", "Hiro": "KILL Dmitri"}
    ).state
    assert witch_phase.phase_id == "N1-witch"
    removal = RULES.host_kill(witch_phase, "Alice", "removed by the host")
    assert [dict(e.data).get("role") for e in removal.public if e.kind == "host_kill"] == ["howler"]
    dawn = step(removal.state, {}).state
    shown = {p["name"]: p.get("role") for p in RULES.view(dawn, None)["players"]}
    assert shown["Alice"] == "howler"


def test_c090_who_acts_is_secret_only_while_someone_may_act():
    """Phases: a night phase hides who acts (all living are actors, full length) while, as
    far as the public knows, someone may have an order in it: N0 only when a role of the
    setup acts in N0; the Witch's turn until every Witch of the setup died with her role
    shown. Otherwise it awaits nobody, openly, and the moderator ends it at once."""
    plain = game(
        {
            "Alice": "werewolf",
            "Bruno": "witch",
            "Chloe": "villager",
            "Dmitri": "villager",
            "Elena": "seer",
        }
    )
    assert not RULES.phase(plain).secret_actors and RULES.phase(plain).awaited == ()
    lovers = game(
        {
            "Alice": "werewolf",
            "Bruno": "romantic",
            "Chloe": "villager",
            "Dmitri": "villager",
            "Elena": "seer",
        }
    )
    assert RULES.phase(lovers).secret_actors
    removed = RULES.host_kill(lovers, "Bruno", "left").state  # the N0 actor leaves: still secret
    assert RULES.phase(removed).secret_actors
    for reveal in (False, True):
        state = to_night(
            game(
                {
                    "Alice": "werewolf",
                    "Bruno": "witch",
                    "Chloe": "villager",
                    "Dmitri": "villager",
                    "Elena": "villager",
                    "Farid": "werewolf",
                },
                reveal_roles=reveal,
            )
        )
        state = RULES.host_kill(state, "Bruno", "left").state
        witch_turn = RULES.phase(step(state, {"Alice": "KILL Chloe", "Farid": "KILL Chloe"}).state)
        assert witch_turn.kind == "witch"
        assert witch_turn.secret_actors is (not reveal)
