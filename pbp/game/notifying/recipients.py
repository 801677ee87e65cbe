"""Who gets a report after a resolution (docs/design.md: Mail only where it tells something).

A player who would learn nothing from a report and has nothing to order gets none. So that
who receives mail never shows who holds a role, the choice rests on facts the public
knows, or on what the player alone is told:

- a resolution that makes something public, ends the game, or opens a phase whose actors
  are secret (`Phase.secret_actors`: a Werewolf night where someone may act unseen) mails
  every living player alike;
- otherwise only the players it tells something privately or who have orders to give in
  the new phase get a report.
"""

from __future__ import annotations

from typing import Any, Collection, Mapping, Sequence

from engine.core import Phase


def report_recipients(
    living: Sequence[str],
    public: Sequence[Any],
    private: Mapping[str, Collection[Any]],
    next_phase: Phase | None,
) -> tuple[str, ...]:
    """The players among `living` (alive before the resolution) who get its report."""
    if public or next_phase is None or next_phase.secret_actors:
        return tuple(living)
    awaited = set(next_phase.awaited)
    return tuple(name for name in living if private.get(name) or name in awaited)
