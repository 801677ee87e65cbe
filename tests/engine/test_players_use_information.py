"""The scripted players use what they know (docs/balance.md): a Seer who found a wolf claims
it, the village nominates the player a believed claim names, the Bodyguard protects the
claimed Seer and the pack hunts her; an Infiltration Green posts what a Seer terminal told
it, and Greens lynch the player the thread's reports name Red. Each is a player of skill 1
fed a real view with the facts added to its mail or thread."""

from __future__ import annotations

import random

import engine
from engine.core import Event
from engine.players import Post, Seen
from engine.simulation import Table

WEREWOLF = engine.ruleset("werewolf")
INFILTRATION = engine.ruleset("infiltration")
ROLES = "werewolf,werewolf,seer,bodyguard,villager,villager,villager,villager,villager"


def werewolf_table(phase_prefix: str) -> Table:
    table = Table(WEREWOLF, 9, "informed", {"roles": ROLES}, 1.0)
    while not table.state.phase_id.startswith(phase_prefix):
        table.play_phase(WEREWOLF.phase(table.state))
    return table


def look(table: Table, name: str, mail=(), thread=(), coin=0) -> Seen:
    phase = table.rules.phase(table.state)
    return Seen(
        name,
        phase.id,
        table.rules.view(table.state, name),
        tuple(phase.grammar[name]),
        (),
        tuple(mail),
        tuple(thread),
        coin,
        {channel: coin for channel in table.rules.status(table.state, name).channels},
    )


def holder(table: Table, role: str) -> str:
    return next(c.name for c in table.state.characters if c.role == role and c.alive)


def test_a_seer_who_found_a_wolf_claims_and_the_village_nominates_the_wolf():
    table = werewolf_table("D1-nominate")
    seer, wolf = holder(table, "seer"), holder(table, "werewolf")
    player = WEREWOLF.scripted_player(seer, 1.0)
    posts = player.talk(
        look(table, seer, mail=[Event("vision", {"target": wolf, "verdict": "wolf"})]),
        random.Random(1),
    )
    assert [(p.kind, dict(p.data)) for p in posts] == [
        ("claim", {"role": "seer", "results": {wolf: "wolf"}})
    ]
    villager = next(c.name for c in table.state.characters if c.role == "villager")
    chosen = [
        WEREWOLF.scripted_player(villager, 1.0).orders(
            look(table, villager, thread=posts, coin=coin), random.Random(coin)
        )
        for coin in range(0, 1 << 64, (1 << 64) // 100)
    ]
    assert sum(line == f"NOMINATE {wolf}" for line in chosen) >= 90


def test_the_bodyguard_guards_a_claimed_seer_and_the_pack_hunts_her():
    table = werewolf_table("N1")
    seer = holder(table, "seer")
    claim = (Post(seer, "D1-nominate", "claim", {"role": "seer", "results": {}}),)
    guard = holder(table, "bodyguard")
    assert (
        WEREWOLF.scripted_player(guard, 1.0).orders(
            look(table, guard, thread=claim), random.Random(0)
        )
        == f"PROTECT {seer}"
    )
    wolf = holder(table, "werewolf")
    assert (
        WEREWOLF.scripted_player(wolf, 1.0).orders(
            look(table, wolf, thread=claim), random.Random(0)
        )
        == f"KILL {seer}"
    )


def test_greens_post_their_terminal_answers_and_lynch_whom_the_reports_name_red():
    table = Table(INFILTRATION, 10, "informed", {}, 1.0)
    while not table.state.phase_id.endswith("decision"):
        table.play_phase(INFILTRATION.phase(table.state))
    greens = sorted(
        c.name for c in table.state.characters.values() if c.team == "green" and c.alive
    )
    red = next(c.name for c in table.state.characters.values() if c.team == "red")
    answer = Event("terminal", {"turn": 1, "terminal": "SEER", "target": red, "team": "red"})
    reporter = INFILTRATION.scripted_player(greens[0], 1.0)
    posts = reporter.talk(look(table, greens[0], mail=[answer]), random.Random(0))
    assert posts and posts[0].data["teams"] == {red: "red"}
    votes = [
        INFILTRATION.scripted_player(green, 1.0).orders(
            look(table, green, thread=posts), random.Random(3)
        )
        for green in greens[1:]
    ]
    assert all(f"VOTE {red}" in lines.splitlines() for lines in votes), votes


def test_the_lover_of_a_runoffs_last_candidate_nominates_nobody_and_the_others_name_him():
    """A lover may not nominate their lover (docs/rules/werewolf.md: Orders and receipts).
    The host removed one of a runoff's two candidates; the other's lover has no choice left
    and gives no nomination, while everyone else names the candidate left (the example the
    secrecy proofs found: 15 players, seed 0, Lucia removed before N0, Dmitri in D1)."""
    from engine.core import PlayerSpec
    from engine.seat_names import player_names

    options = {
        "reveal_roles": False,
        "wench_missing": "random",
        "bodyguard_self": "forbidden",
        "bodyguard_repeat": "allowed",
        "wolf_tie": "no-kill",
    }
    state = WEREWOLF.new_game([PlayerSpec(n) for n in player_names(15)], "0", options)
    for removed in ("Lucia", None, "Dmitri"):
        if removed:
            state = WEREWOLF.host_kill(state, removed, "removed").state
        phase = WEREWOLF.phase(state)
        orders = {actor: WEREWOLF.scripted_orders(state, actor, "0") for actor in phase.actors}
        if phase.id == "D1-runoff":
            break
        state = WEREWOLF.resolve(
            state,
            {
                actor: WEREWOLF.parse_orders(state, actor, text.splitlines())
                for actor, text in orders.items()
            },
        ).state
    assert phase.id == "D1-runoff"
    (candidate,) = {
        choice for actor in phase.actors for spec in phase.grammar[actor] for choice in spec.choices
    }
    lover = next(actor for actor in phase.actors if not phase.grammar[actor][0].choices)
    assert orders[lover] == ""
    assert all(orders[actor] == f"NOMINATE {candidate}" for actor in phase.actors if actor != lover)
