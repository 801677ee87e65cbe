"""Night orders (docs/balance.md: Power roles). With probability `skill` a power is used with
sense, otherwise at random as an unskilled player would (skill 0: wholly at random, the
wolves' victim one uniform draw of the pack):

- wolves kill a believed Seer first, then another claimant, then whom the village trusts;
- the Seer looks at the unseen player she suspects most;
- the Bodyguard protects the believed Seer, else someone the village trusts;
- the Witch saves a valuable target (herself, a believed Seer, a claimant) and poisons only
  on evidence; the Wench visits whom she trusts; the Ninja strikes only on evidence;
- the Howler silences the believed Seer, else the most trusted villager; the Rabble
  Rouser rouses when two players are under strong suspicion.
"""

from __future__ import annotations

import random

from engine.core import OrderSpec
from engine.players import Seen
from engine.werewolf.players.choice import pick, shared_draw
from engine.werewolf.players.mind import PACK_CHANNEL, Mind

# How keen an unskilled player is to spend a once-per-game or optional power tonight.
RANDOM_USE = {"SAVE": 0.6, "POISON": 0.25, "ROUSE": 0.3, "SEDUCE": 0.4, "SILENCE": 0.7}
POISON_EVIDENCE = 2.5  # the score from which the Witch poisons
STRIKE_EVIDENCE = 1.5  # the score from which the Ninja strikes
ROUSE_EVIDENCE = 1.5  # two players at least this suspect: the rabble is worth rousing
UNFORCED_SAVE = 0.3  # a skilled Witch's chance to save a target of no special value


def night_order(mind: Mind, seen: Seen, spec: OrderSpec, rng: random.Random) -> str | None:
    choices = sorted(spec.choices)
    if mind.is_wolf:  # a wolf's power never aims at the pack (the Howler's silence)
        choices = [name for name in choices if name not in mind.pack]
    if not choices and spec.syntax != spec.keyword:
        return None  # nobody to name
    if spec.keyword == "KILL":
        return f"KILL {kill(mind, seen, choices)}"
    if spec.keyword == "BITE":  # the Weregerbils share one uniform draw
        coin = seen.team_coins.get("gerbils", 0)
        return f"BITE {choices[int(shared_draw(coin, 'bite') * len(choices))]}"
    skilled = rng.random() < mind.skill
    if not skilled:
        return random_order(spec, choices, rng)
    chooser = SKILLED.get(spec.keyword)
    if chooser is None:
        return random_order(spec, choices, rng)
    return chooser(mind, spec, choices, rng)


def random_order(spec: OrderSpec, choices: list[str], rng: random.Random) -> str | None:
    if spec.keyword in RANDOM_USE and rng.random() > RANDOM_USE[spec.keyword]:
        return None
    if not choices:
        return spec.keyword if spec.syntax == spec.keyword else None
    return f"{spec.keyword} {rng.choice(choices)}"


def kill(mind: Mind, seen: Seen, choices: list[str]) -> str:
    """The pack's victim, from the pack's coin: every wolf reads the same record."""
    coin = seen.team_coins.get(PACK_CHANNEL, 0)
    if shared_draw(coin, "skilled") >= mind.skill:
        return choices[min(int(shared_draw(coin, "victim") * len(choices)), len(choices) - 1)]
    for claimant in mind.record.claim_order:
        if claimant in choices:
            return claimant
    public = mind.public()
    return pick(
        choices,
        {name: -public.get(name, 0.0) for name in choices},
        mind.beta,
        shared_draw(coin, "victim"),
    )


def see(mind: Mind, spec: OrderSpec, choices: list[str], rng: random.Random) -> str:
    fresh = [name for name in choices if name not in mind.visions] or choices
    return f"SEE {pick(fresh, mind.private(), mind.beta, rng.random())}"


def protect(mind: Mind, spec: OrderSpec, choices: list[str], rng: random.Random) -> str:
    seers = [name for name in mind.claimed_seers() if name in choices]
    if seers:
        return f"PROTECT {seers[0]}"
    return f"PROTECT {trusted(mind, choices, rng)}"


def trusted(mind: Mind, choices: list[str], rng: random.Random) -> str:
    scores = mind.private()
    return pick(
        choices, {name: -scores.get(name, 0.0) for name in choices}, mind.beta, rng.random()
    )


def save(mind: Mind, spec: OrderSpec, choices: list[str], rng: random.Random) -> str | None:
    target = mind.me.get("wolves_target")
    valuable = target == mind.name or target in mind.record.claims
    return "SAVE" if valuable or rng.random() < UNFORCED_SAVE else None


def poison(mind: Mind, spec: OrderSpec, choices: list[str], rng: random.Random) -> str | None:
    return _on_evidence(mind, "POISON", choices, POISON_EVIDENCE)


def strike(mind: Mind, spec: OrderSpec, choices: list[str], rng: random.Random) -> str | None:
    return _on_evidence(mind, "STRIKE", choices, STRIKE_EVIDENCE)


def _on_evidence(mind: Mind, keyword: str, choices: list[str], evidence: float) -> str | None:
    scores = mind.private()
    suspect = max(choices, key=lambda name: scores.get(name, 0.0), default=None)
    if suspect is None or scores.get(suspect, 0.0) < evidence:
        return None
    return f"{keyword} {suspect}"


def visit(mind: Mind, spec: OrderSpec, choices: list[str], rng: random.Random) -> str:
    return f"VISIT {trusted(mind, choices, rng)}"


def silence(mind: Mind, spec: OrderSpec, choices: list[str], rng: random.Random) -> str:
    seers = [name for name in mind.record.claim_order if name in choices]
    if seers:
        return f"SILENCE {seers[0]}"
    public = mind.public()
    return f"SILENCE {min(choices, key=lambda name: public.get(name, 0.0))}"


def rouse(mind: Mind, spec: OrderSpec, choices: list[str], rng: random.Random) -> str | None:
    suspects = [score for score in mind.public().values() if score >= ROUSE_EVIDENCE]
    return "ROUSE" if len(suspects) >= 2 else None


SKILLED = {
    "SEE": see,
    "PROTECT": protect,
    "SAVE": save,
    "POISON": poison,
    "STRIKE": strike,
    "VISIT": visit,
    "SILENCE": silence,
    "ROUSE": rouse,
}
