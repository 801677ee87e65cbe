"""templates/werewolf: every event kind the engine emits, taken from real games, is worded
by `describe(event)`; `status(view)` renders every view. StrictUndefined turns any missing
field into a failure."""

from __future__ import annotations

import engine
from engine.core import PlayerSpec
from engine.seat_names import player_names
from engine.werewolf.events import EVENT_KINDS
from tests.werewolf.werewolf_helpers import RULES, game, night, step, to_night, vampire_rules
from pbp.render.renderer import Renderer

ENV = Renderer().env  # the templates as pbp renders them (with its globals)
DESCRIBE = ENV.get_template("werewolf/events.j2").module.describe
STATUS = ENV.get_template("werewolf/status.j2").module.status

GAMES = (
    (11, {"setup_11": "succubus"}),
    (12, {"reveal_roles": True}),
    (15, {}),
    (20, {}),
    (
        10,
        {
            "roles": "werewolf,werewolf,rabble rouser,seer,witch,bodyguard,mason,apothecary,wench,mason"
        },
    ),
    (11, {"setup_11": "werehamster"}),
)


def collect():
    """Events and final views from scripted games, plus the scenarios games rarely reach."""
    rules = engine.ruleset("werewolf")
    events, views = [], []

    def keep(resolution):
        events.extend(resolution.public)
        for private in resolution.private.values():
            events.extend(private)
        return resolution.state

    for seed in ("t0", "t1", "t2"):
        for count, options in GAMES:
            state = rules.new_game([PlayerSpec(n) for n in player_names(count)], seed, options)
            while rules.phase(state):
                phase = rules.phase(state)
                if phase.kind == "vote":
                    views.append(rules.view(state, phase.actors[0]))
                orders = {
                    a: rules.parse_orders(
                        state, a, rules.scripted_orders(state, a, seed).splitlines()
                    )
                    for a in phase.actors
                }
                state = keep(rules.resolve(state, orders))
            views.append(rules.view(state, None))
            views.extend(rules.view(state, c.name) for c in state.characters)
    hamster = to_night(
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
    state = keep(night(hamster, {"Bruno": "SEE Chloe"}))
    keep(step(state))  # no nominations
    views.append(RULES.view(state, "Bruno"))
    keep(RULES.host_kill(state, "Dmitri", "posted while silenced."))
    five = {
        "Alice": "werewolf",
        "Bruno": "seer",
        "Chloe": "succubus",
        "Dmitri": "ninja",
        "Elena": "villager",
        "Farid": "villager",
    }
    keep(
        night(
            to_night(game(five)),
            {"Chloe": "SEDUCE Elena", "Dmitri": "STRIKE Farid", "Bruno": "SEE Farid"},
        )
    )
    keep(night(to_night(game(five)), {"Chloe": "SEDUCE Dmitri"}))
    day = step(
        game(
            {
                "Alice": "werewolf",
                "Bruno": "seer",
                "Chloe": "villager",
                "Dmitri": "villager",
                "Elena": "villager",
            }
        )
    ).state
    runoff = keep(
        step(day, {"Alice": "NOMINATE Bruno", "Bruno": "NOMINATE Chloe", "Chloe": "NOMINATE Alice"})
    )
    keep(step(runoff))  # nobody nominates in the runoff: the draw fills the places
    trial = keep(step(day, {"Alice": "NOMINATE Bruno"}))  # one defendant
    keep(step(trial, {name: "VOTE NO LYNCH" for name in ("Alice", "Chloe", "Dmitri")}))
    vampires = vampire_rules()
    contested = to_night(
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
            rules=vampires,
        ),
        rules=vampires,
    )
    keep(night(contested, {"Bruno": "BITE Dmitri", "Chloe": "DRAIN Dmitri"}, rules=vampires))
    return events, views


EVENTS, VIEWS = collect()


def test_every_event_kind_occurs_and_is_described():
    seen = {event.kind for event in EVENTS}
    assert seen == set(EVENT_KINDS)
    for event in EVENTS:
        text = DESCRIBE(event.to_json())
        assert text.strip() and text.strip() != event.kind, event


def test_status_renders_every_view():
    for view in VIEWS:
        text = STATUS(view)
        assert "Alive:" in text
        if "me" in view:
            assert view["me"]["role"].replace("_", " ").lower() in text.lower()
