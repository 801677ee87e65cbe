"""A player's status (engine.core.PlayerStatus) carries what the shell tells a player about
themself and, at the end, about everyone: team, role or class, the groups they know in
the order to tell them, and the words of the role list (docs/design.md: Engine contract)."""

from __future__ import annotations

from engine.core import PlayerSpec
from tests.infiltration.scenario import RULES as INFILTRATION
from tests.werewolf.werewolf_helpers import RULES as WEREWOLF, game, night, step, to_night


def test_infiltration_a_red_knows_the_reds_and_shows_team_then_class():
    """Rules: the Reds know each other from the start, NPCs among them."""
    specs = [PlayerSpec(name) for name in ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus")]
    specs.append(PlayerSpec("Raiden", npc=True, npc_class="renegade", npc_team="red"))
    state = INFILTRATION.new_game(specs, "status", {"reds": 2})
    reds = sorted(name for name, c in state.characters.items() if c.team == "red")
    red = next(name for name in reds if name != "Raiden")
    status = INFILTRATION.status(state, red)
    assert (status.team, status.label) == ("red", "red")
    assert status.teammates == {"Reds": tuple(name for name in reds if name != red)}
    assert status.revealed == ("red", status.role) and status.role == state.characters[red].role
    green = next(name for name, c in state.characters.items() if c.team == "green")
    assert INFILTRATION.status(state, green).teammates == {}


def test_werewolf_teams_come_sorted_and_the_lover_last():
    """Romantic: "the Romantic and her lover learn each other"; wolves know the pack."""
    state = game(
        {
            "Alice": "werewolf",
            "Bruno": "romantic",
            "Chloe": "villager",
            "Dmitri": "villager",
            "Elena": "villager",
            "Farid": "villager",
            "Greta": "werewolf",
        }
    )
    state = step(state, {"Bruno": "LOVE Alice"}).state
    status = WEREWOLF.status(state, "Alice")
    assert list(status.teammates.items()) == [("wolves", ("Greta",)), ("lover", ("Bruno",))]
    assert (status.role, status.team, status.revealed) == ("werewolf", "wolves", ("werewolf",))


def test_werewolf_reveals_a_hybrid_by_both_parts():
    """Sizes: "a hybrid is revealed by both parts ("Wench-Weregerbil")"."""
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
            }
        )
    )
    state = step(night(state, {"Chloe": "VISIT Bruno"}).state).state
    status = WEREWOLF.status(state, "Chloe")
    assert (status.role, status.revealed) == ("wench", ("wench-weregerbil",))


def test_werewolf_a_lone_wolf_hunts_alone():
    """The KILL of a wolf who knows no living packmate says it hunts alone (the pack form's
    wording is for a pack); a wolf with a living packmate reads the pack's."""
    state = to_night(
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
    )
    (kill,) = WEREWOLF.phase(state).grammar["Alice"]
    assert kill.keyword == "KILL" and kill.note == "you hunt alone: your KILL names the victim"
    pack = to_night(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "villager",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
                "Farid": "villager",
                "Greta": "werewolf",
            }
        )
    )
    (kill,) = WEREWOLF.phase(pack).grammar["Alice"]
    assert "most named by the pack" in kill.note
