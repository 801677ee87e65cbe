"""One scripted Werewolf player's memory: the public record, what its own mail told it, and
the scores it reads from both (docs/balance.md: What a scripted player sees)."""

from __future__ import annotations

from typing import Any, Mapping

from engine.players import Seen, Skill
from engine.werewolf.players.choice import KNOWN, beta_of
from engine.werewolf.players.record import NOT_WOLF, WOLF, PublicRecord
from engine.werewolf.players.suspicion import public_scores, trust

WOLVES_TEAM, PACK_CHANNEL = "wolves", "pack"


class Mind:
    def __init__(self, name: str, skill: Skill):
        self.name, self.skills = name, skill
        self.village_beta = beta_of(skill.village)  # the village's public draw: the same for all
        self.record = PublicRecord()
        self.visions: dict[str, str] = {}  # the Seer's own results
        self.examined: dict[str, str] = {}  # the Apothecary's results (the dead)
        self.not_wolves: set[str] = set()  # the Witch's wolf targets: never a wolf
        self.consensus: dict[int, str] = {}  # the village's draw, by day
        self.posted: dict[str, str] | None = None  # the results last claimed (None: no claim yet)
        self.phase = ""
        self.view: Mapping[str, Any] = {}
        # The public scores of the record as last read (they are asked several times a phase).
        self._public: tuple[tuple[int, int, tuple[str, ...]], dict[str, float]] | None = None

    # ------------------------------------------------------------------ looking
    def look(self, seen: Seen) -> None:
        """Read what is new: once per phase the events, every time the thread."""
        if seen.phase != self.phase:
            self.phase, self.view = seen.phase, seen.view
            self.record.read_events(seen.news)
            for event in seen.mail:
                self._read_mail(event.kind, event.data)
        self.record.read_thread(seen.thread)

    def _read_mail(self, kind: str, data: Mapping[str, Any]) -> None:
        if kind == "vision":
            self.visions[data["target"]] = data["verdict"]
        elif kind == "witch_told" and data.get("target"):
            self.not_wolves.add(data["target"])
        elif kind == "apothecary_report":
            for victim in data["victims"]:
                self.examined[victim["player"]] = victim["verdict"]

    # ------------------------------------------------------------------ who I am
    @property
    def skill(self) -> float:
        """My side's skill: the wolves' while I am a wolf, else the village's."""
        return self.skills.side(self.is_wolf)

    @property
    def beta(self) -> float:
        return beta_of(self.skill)

    @property
    def me(self) -> Mapping[str, Any]:
        me: Mapping[str, Any] = self.view["me"]
        return me

    @property
    def role(self) -> str:
        return str(self.me["role"])

    @property
    def is_wolf(self) -> bool:
        return bool(self.me["faction"] == WOLVES_TEAM)

    @property
    def pack(self) -> list[str]:
        """The living wolves I know, me included (sorted, so the pack agrees on its order)."""
        if not self.is_wolf:
            return []
        return sorted({self.name, *self.me["teams"].get(WOLVES_TEAM, ())})

    @property
    def living(self) -> list[str]:
        return list(self.view["living"])

    @property
    def day(self) -> int:
        return int(self.view["day"])

    # ------------------------------------------------------------------ scores
    def public(self) -> dict[str, float]:
        """The public scores (a copy the caller may change)."""
        key = (*self.record.progress, tuple(self.view["living"]))
        if self._public is None or self._public[0] != key:
            self._public = (key, public_scores(self.record, list(key[2])))
        return dict(self._public[1])

    def private(self) -> dict[str, float]:
        """The public scores with what only I know: myself, my teams, my results."""
        scores = self.public()
        if self.is_wolf:
            pack = set(self.pack)
            return {name: KNOWN if name in pack else score for name, score in scores.items()}
        cleared = {self.name} | self.not_wolves
        for team, members in self.me["teams"].items():
            if team != WOLVES_TEAM:
                cleared.update(members)
        liars = set(self.record.claimants("seer")) - {self.name} if self.role == "seer" else set()
        for name in scores:
            verdict = self.visions.get(name)
            if name in liars and verdict != NOT_WOLF:
                verdict = WOLF  # only the Seer knows a rival Seer claim is a lie
            if verdict == WOLF:
                scores[name] = KNOWN
            elif name in cleared or verdict == NOT_WOLF:
                scores[name] = -KNOWN
        return scores

    def trust(self) -> dict[str, float]:
        return trust(self.record)

    def claimed_seers(self, minimum: float = 0.3) -> list[str]:
        """Living Seer claimants believed at least `minimum`, most believed first."""
        believed = self.trust()
        living = set(self.living)
        found = [
            name
            for name in self.record.claimants("seer")
            if name in living and believed[name] >= minimum
        ]
        return sorted(found, key=lambda name: -believed[name])
