"""Whole scripted games with every public post drafted and leak-checked, for the tests."""
from __future__ import annotations

from engine.core import PlayerSpec
from engine.simulation import player_names
from pbp.forum.dialects import dialect
from pbp.forum.drafting import PostFacts, PostRenderer
from pbp.forum.leaks import LeakCheck
from pbp.forum.service import living_voters, role_list


def drafts_of_game(rules, ruleset: str, players: int, seed, dialect_name: str = "markdown", max_phases: int = 2000):
    """Yield (phase, draft, leak check) for every resolution of one scripted game."""
    renderer = PostRenderer()
    names = player_names(players)
    state = rules.new_game([PlayerSpec(n) for n in names], seed, {})
    for _ in range(max_phases):
        phase = rules.phase(state)
        if phase is None:
            return
        orders = {a: rules.parse_orders(state, a, rules.scripted_orders(state, a, seed).splitlines())
                  for a in phase.actors}
        voters = living_voters(rules.view(state, None))
        resolution = rules.resolve(state, orders)
        state = resolution.state
        view = rules.view(state, None)
        result = rules.result(state)
        facts = PostFacts(game="g1", ruleset=ruleset, phase=phase.id, public_view=view,
                          events=[e.to_json() for e in resolution.public],
                          result=result.to_json() if result else None, voters=voters,
                          extra={"roles": role_list(view)})
        draft = renderer.render(facts, dialect(dialect_name))
        check = LeakCheck({n: rules.view(state, n) for n in names}, view, names)
        yield phase.id, draft, check
