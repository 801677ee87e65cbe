"""The suspicion model (docs/balance.md: The suspicion model): a score per living player,
in log-odds of being a wolf, read from the public record. Every player computes the same
public scores from the same record; a player then adds what only they know (`private`).

Rules of thumb real players use, each a term below:
- a claimed Seer's results move their targets, by how far the claimant is trusted;
- a claim is trusted less when someone counterclaims it, not at all once a result was
  shown false (a flip, or a "wolf" who died at night, which wolves rarely cause), and
  fully when its claimant was killed at night (wolves hunt the real Seer);
- counterclaimants and discredited claimants are suspects themselves;
- who voted to save a player shown to be a wolf, or to hang one shown innocent, is
  suspect; so is whoever keeps voting to save a player a trusted claim named a wolf.
"""

from __future__ import annotations

from engine.werewolf.players.record import NOT_WOLF, WOLF, PublicRecord

CLAIM_WEIGHT = 3.0  # a fully trusted "wolf" (or "not wolf") result
LONE_CLAIM_TRUST = 0.85  # an uncontested claim
CONTESTED_TRUST = 0.3  # one of two or more claims of the same role
LIAR_WEIGHT = 3.0  # a claimant whose result was shown false
BELIEVED_CLAIMANT = 2.0  # a claimant nobody contests is most likely what they claim
COUNTERCLAIM_WEIGHT = 2.5  # a claimant whose claim is contested
DEFENDED_WOLF = 1.2  # voted to save a player who flipped wolf
HANGED_VILLAGER = 0.35  # voted (or nominated) to hang a player who flipped innocent
HELPED_WOLF_OUT = -0.4  # voted to hang a player who flipped wolf (wolves bus sometimes)
DEFENDED_ACCUSED = 0.6  # voted to save a player a trusted claim names a wolf


def examined(record: PublicRecord) -> dict[str, bool]:
    """What an uncontested Apothecary claim says the lynched were (wolf or not)."""
    apothecaries = record.claimants("apothecary")
    if len(apothecaries) != 1:
        return {}
    return {
        name: verdict == WOLF for name, verdict in record.claims[apothecaries[0]].results.items()
    }


def shown_false(record: PublicRecord, claimant: str, told: dict[str, bool] | None = None) -> bool:
    """A result of this claim contradicts a flip (or an Apothecary's word, `told`: the
    caller's `examined(record)` when it has it), or calls a night victim a wolf."""
    if record.claims[claimant].role == "apothecary":
        told = {}
    elif told is None:
        told = examined(record)
    for target, verdict in record.claims[claimant].results.items():
        flipped = record.is_wolf_flip(target)
        if flipped is None:
            flipped = told.get(target)
        if flipped is not None and flipped != (verdict == WOLF):
            return True
        if flipped is None and verdict == WOLF and target in record.night_dead:
            return True
    return False


def trust(record: PublicRecord) -> dict[str, float]:
    """How far each claimant is believed, 0..1."""
    told = examined(record)
    liars = {claimant for claimant in record.claim_order if shown_false(record, claimant, told)}
    trusted: dict[str, float] = {}
    for claimant in record.claim_order:
        rivals = [
            other
            for other in record.claimants(record.claims[claimant].role)
            if other != claimant and other not in liars
        ]
        if claimant in liars:
            trusted[claimant] = 0.0
        elif claimant in record.night_dead and not record.flips.get(claimant):
            trusted[claimant] = 0.95
        elif record.is_wolf_flip(claimant) is not None:
            trusted[claimant] = 0.0 if record.is_wolf_flip(claimant) else 1.0
        elif any(rival in record.night_dead for rival in rivals):
            trusted[claimant] = 0.1
        else:
            trusted[claimant] = CONTESTED_TRUST if rivals else LONE_CLAIM_TRUST
    return trusted


def public_scores(record: PublicRecord, living: list[str]) -> dict[str, float]:
    """The public suspicion of every living player."""
    scores = dict.fromkeys(living, 0.0)
    trusted = trust(record)
    accused: dict[str, float] = {}
    for claimant, weight in trusted.items():
        claim = record.claims[claimant]
        for target, verdict in claim.results.items():
            if verdict == WOLF:
                accused[target] = accused.get(target, 0.0) + weight
            if target in scores:
                scores[target] += (
                    CLAIM_WEIGHT
                    * weight
                    * (1 if verdict == WOLF else -1 if verdict == NOT_WOLF else 0)
                )
        if claimant in scores:
            if weight >= LONE_CLAIM_TRUST:
                scores[claimant] -= BELIEVED_CLAIMANT * weight
            elif weight == 0.0:
                scores[claimant] += LIAR_WEIGHT
            elif weight < LONE_CLAIM_TRUST:
                scores[claimant] += COUNTERCLAIM_WEIGHT * (1 - weight)
    for trial in record.trials:
        for defendant in trial.defendants:
            flipped = record.is_wolf_flip(defendant)
            accusation = min(accused.get(defendant, 0.0), 1.0)
            for voter, choice in trial.votes.items():
                if voter not in scores:
                    continue
                against = choice == defendant
                if flipped is True:
                    scores[voter] += HELPED_WOLF_OUT if against else DEFENDED_WOLF
                elif flipped is False and against and defendant in trial.lynched:
                    scores[voter] += HANGED_VILLAGER
                elif flipped is None and accusation and not against:
                    scores[voter] += DEFENDED_ACCUSED * accusation
    return scores
