"""Whole scripted games with every public post drafted and leak-checked, for the tests."""

from __future__ import annotations

from engine.core import PlayerSpec
from engine.seat_names import player_names
from pbp.forum.publishing.dialects import dialect
from pbp.forum.publishing.post_renderer import PostFacts, PostRenderer
from pbp.forum.publishing.leaks import LeakCheck
from pbp.forum.publishing.drafting import living_voters, role_list


def drafts_of_game(
    rules,
    ruleset: str,
    players: int,
    seed,
    dialect_name: str = "markdown",
    max_phases: int = 2000,
    host_kill_at: int | None = None,
):
    """Yield (phase, draft, leak check) for every resolution of one scripted game; with
    `host_kill_at`, the host removes a living player (with a reason) once that many phases
    have resolved, and its announcement (`<phase>/host-1`) is yielded too."""
    renderer = PostRenderer()
    names = player_names(players)
    state = rules.new_game([PlayerSpec(n) for n in names], seed, {})
    style = dialect(dialect_name)
    for number in range(max_phases):
        phase = rules.phase(state)
        if phase is None:
            return
        if number == host_kill_at:
            victim = living_voters(rules.card, rules.view(state, None))[-1]
            resolution = rules.host_kill(state, victim, "gone quiet [for good]")
            state = resolution.state
            view = rules.view(state, None)
            facts = PostFacts(
                game="g1",
                ruleset=ruleset,
                phase=phase.id,
                public_view=view,
                events=[e.to_json() for e in resolution.public],
                extra={"roles": role_list(rules, state)},
                phase_words=rules.card.phase_words,
            )
            check = LeakCheck(
                rules.card.secret_fields, {n: rules.view(state, n) for n in names}, view, names
            )
            yield f"{phase.id}/host-1", renderer.render(facts, style, kind="host"), check
            if rules.phase(state) is None:
                return
            continue
        orders = {
            a: rules.parse_orders(state, a, rules.scripted_orders(state, a, seed).splitlines())
            for a in phase.actors
        }
        voters = living_voters(rules.card, rules.view(state, None))
        resolution = rules.resolve(state, orders)
        state = resolution.state
        view = rules.view(state, None)
        result = rules.result(state)
        facts = PostFacts(
            game="g1",
            ruleset=ruleset,
            phase=phase.id,
            public_view=view,
            events=[e.to_json() for e in resolution.public],
            result=result.to_json() if result else None,
            voters=voters,
            extra={"roles": role_list(rules, state)},
            phase_words=rules.card.phase_words,
        )
        draft = renderer.render(facts, style)
        check = LeakCheck(
            rules.card.secret_fields, {n: rules.view(state, n) for n in names}, view, names
        )
        yield phase.id, draft, check
