"""What the thread tells every reader alike (docs/balance.md: Infiltration): each poster's
latest report, the public suspicion scores (log-odds of being Red, from the reports, each
weighed by how far its poster is trusted: less when someone contradicts them), the features
and the code trusted posters reported, who reported a Stinger and the living by suspicion.

A reading depends on the thread and the living players alone, and every player of a phase
is handed the same thread (one tuple): the first player to look makes the reading and the
others reuse it (`reading_of`).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from engine.players import Post

RED = "red"
REPORT_WEIGHT = 2.0  # a trusted "is Red" report
TRUSTED = 1.0  # a poster whose public score is below this is believed


class Reading:
    def __init__(self, thread: tuple[Post, ...], living: tuple[str, ...]):
        self.thread, self.living = thread, living
        # Mission plans made from this reading, by what else a plan reads (greens.mission):
        # the Greens who know the same rooms and code share one plan.
        self.plans: dict[Any, dict[str, str]] = {}
        self.among: dict[tuple[str, ...], dict[str, str]] = {}  # features_among, by kinds

    @cached_property
    def reports(self) -> dict[str, dict[str, Any]]:
        """Each poster's latest report."""
        latest: dict[str, dict[str, Any]] = {}
        for post in self.thread:
            if post.kind == "report":
                latest.setdefault(post.author, {}).update(post.data)
        return latest

    @cached_property
    def scores(self) -> dict[str, float]:
        """Each living player's public score."""
        scores = dict.fromkeys(self.living, 0.0)
        said: dict[str, dict[str, str]] = {}
        for author, report in self.reports.items():
            for target, team in report.get("teams", {}).items():
                said.setdefault(target, {})[author] = team
        doubted = {
            author for claims in said.values() if len(set(claims.values())) > 1 for author in claims
        }
        for target, claims in said.items():
            if target not in scores:
                continue
            for author, team in claims.items():
                weight = 0.5 if author in doubted else 1.0
                if author == target:
                    continue
                scores[target] += REPORT_WEIGHT * weight * (1 if team == RED else -0.5)
        for author in doubted:
            if author in scores:
                scores[author] += 0.5
        return scores

    @cached_property
    def called_red(self) -> dict[str, tuple[str, ...]]:
        """Player -> the posters whose latest report calls them Red (each reader asks
        about itself: only a liar calls me Red)."""
        found: dict[str, list[str]] = {}
        for author, report in self.reports.items():
            for target, team in report.get("teams", {}).items():
                if team == RED:
                    found.setdefault(target, []).append(author)
        return {target: tuple(authors) for target, authors in found.items()}

    def trusted(self, author: str) -> bool:
        return self.scores.get(author, 0.0) < TRUSTED

    @cached_property
    def features(self) -> dict[str, str]:
        """Room -> feature, as trusted posters reported them (the earliest one wins)."""
        known: dict[str, str] = {}
        for author, report in reversed(list(self.reports.items())):  # merged last-first
            if self.trusted(author):
                known.update(report.get("features", {}))
        return known

    def features_among(self, kinds: tuple[str, ...]) -> dict[str, str]:
        """`features` of these kinds only, made once for every reader."""
        if kinds not in self.among:
            self.among[kinds] = {
                room: feature for room, feature in self.features.items() if feature in kinds
            }
        return self.among[kinds]

    @cached_property
    def code(self) -> str | None:
        """The code as the first trusted poster who reported it gave it."""
        return next(
            (
                str(report["code"])
                for author, report in self.reports.items()
                if report.get("code") and self.trusted(author)
            ),
            None,
        )

    @cached_property
    def least_suspected(self) -> tuple[str, ...]:
        """The living players, least suspected first (then by name)."""
        return tuple(sorted(self.living, key=lambda name: (self.scores[name], name)))

    @cached_property
    def carriers(self) -> tuple[str, ...]:
        """Living players who reported a Stinger, least suspected first."""
        stung = [
            author
            for author, report in self.reports.items()
            if report.get("stinger") and author in self.scores
        ]
        return tuple(sorted(stung, key=lambda name: (self.scores[name], name)))


# The latest reading made. One entry, keyed by the thread itself (held here, so that its
# identity cannot pass to another thread) and by the living players: a reading is made from
# those two alone, so a reading never passes from one game to another.
_latest: list[Reading] = []


def reading_of(thread: tuple[Post, ...], living: tuple[str, ...]) -> Reading:
    """The reading of `thread` with these living players, made once for all its readers."""
    if not (_latest and _latest[0].thread is thread and _latest[0].living == living):
        _latest[:] = [Reading(thread, living)]
    return _latest[0]
