"""The ``pimc`` player (registry line ``Player("pimc", ...)`` in :mod:`wizsim.engine.layout`).

Perfect-Information Monte-Carlo bids and card play (see :class:`PimcStrategy`).
Its decisions in the kernels: :mod:`wizsim.engine.players.pimc` (entry
points) and :mod:`wizsim.engine.players.pimc_search` (the search).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from ..engine.layout import P_BID_SAMPLES, P_GEN, P_INFER, P_PRUNE, P_ROLLOUT, P_SAMPLES, S_PIMC
from ..engine.players import pimc as engine
from ..errors import WizsimError
from .heuristic import HeuristicStrategy
from .learned_data import DEFAULT_GEN, check_generation

ROLLOUTS = (L.ROLLOUT_HEURISTIC, L.ROLLOUT_RANDOM, L.ROLLOUT_TABLE, L.ROLLOUT_LEARNED, L.ROLLOUT_SEATS)
PIMC_DEFAULTS = {
    "samples": 32.0, "bid_samples": 32.0, "rollout": float(L.ROLLOUT_SEATS), "prune": 2.0, "infer": 0.0,
    "gen": float(DEFAULT_GEN),
}  # fmt: skip


@dataclass(frozen=True)
class PimcStrategy(HeuristicStrategy):
    """Perfect-Information Monte-Carlo: decisions by playing sampled deals out.

    At every card decision with a choice it deals the cards it cannot see
    ``samples`` times consistently with what it knows (its hand, the cards
    played, the face-up card, the suits the others have shown out of, their
    hand sizes, the indicator a Werewolf took, the card it passed after a
    Juggler trick), plays each candidate (each
    legal card; a Juggler, Cloud or Shapeshifter in its winning and its
    losing form) out in every deal with the ``rollout`` policy for everyone
    (0 = heuristic, 1 = random, 2 = the ``table`` player's refined play, 3 = the
    ``learned`` player's card network, 4 = each seat as its own strategy plays,
    pimc and learned seats by that network), and plays the candidate with the best mean
    own score. Equivalent cards (neighbours in a suit with nothing unseen
    between them) count as one candidate; a single candidate is played at
    once. It bids the same way: ``bid_samples`` deals, each bid within 2 of
    the ``table`` player's bid played out (later bidders bid the heuristic's
    estimate of their sampled hands); ``bid_samples=0`` bids like ``table``.
    Other special-card decisions (trump, Werewolf, passes) are the
    heuristic's.

    ``prune`` (default 2; 0 = off: every candidate in every deal) races
    the candidates, cards or bids: every 8 deals, a candidate whose paired
    score differences to the current best have a positive mean more than
    ``prune`` standard errors from zero (or that is worse by the same margin
    in every deal so far) is dropped; the others go on to all the deals,
    and once one is left it is played at once. With heuristic rollouts the
    bids share rollouts exactly (see ``_pimc_bid``).

    ``infer`` (a spread in tricks; 0 = off) weights every sampled deal by
    how well it explains the bids: prod over the others of
    exp(-(bid - est)^2 / (2 infer^2)), est the heuristic's estimate of the
    hand the deal gives them (plus the cards they have played), rounded to
    an integer weight 1..64. Under secret hidden bids the others' bids are
    never used: in each deal they are the rounded estimates; under any hidden
    bids the earlier bids are not used for bidding.

    ``gen`` (default :data:`.learned_data.DEFAULT_GEN`; :data:`.learned_data.GENERATIONS`): the
    generation of the card network its learned rollouts play, for every seat
    a rollout plays by the network: with ``rollout=4`` a ``learned(gen=1)``
    opponent is rolled out by pimc's own generation, not its seat's. Without
    learned rollouts (``rollout`` 0-2) it has no effect.
    """

    name: str = "pimc"
    strategy_id: int = S_PIMC

    def needs(self) -> frozenset[str]:
        rollout = float(self.params.get("rollout", PIMC_DEFAULTS["rollout"]))
        learned = rollout in (L.ROLLOUT_LEARNED, L.ROLLOUT_SEATS)  # rollouts that play the card network
        return engine.NEEDS | ({"network"} if learned else set())

    def _row(self) -> np.ndarray:
        own = {k: v for k, v in self.params.items() if k in PIMC_DEFAULTS}
        values = {**PIMC_DEFAULTS, **own}
        if values["rollout"] not in ROLLOUTS:
            raise WizsimError(
                f"pimc parameter rollout={values['rollout']!r} must be 0 (heuristic), 1 (random), 2 (table's play),"
                " 3 (learned's play) or 4 (each seat as its strategy plays)"
            )
        for key in ("samples", "bid_samples"):
            v = values[key]
            if v != int(v) or not 0 <= v <= 100_000 or (key == "samples" and v < 1):
                raise WizsimError(f"pimc parameter {key}={v!r} must be a whole number (samples >= 1)")
        if not (values["infer"] == 0 or 0.05 <= values["infer"] <= 100):
            raise WizsimError(
                f"pimc parameter infer={values['infer']!r} must be 0 (off) or a spread in tricks from 0.05 to 100"
            )
        if not 0 <= values["prune"] <= 1000:
            raise WizsimError(
                f"pimc parameter prune={values['prune']!r} must be a number of standard errors from 0 to 1000 (0 = off)"
            )
        row = HeuristicStrategy(params={k: v for k, v in self.params.items() if k not in PIMC_DEFAULTS}).param_row()
        row[P_SAMPLES] = values["samples"]
        row[P_BID_SAMPLES] = values["bid_samples"]
        row[P_ROLLOUT] = values["rollout"]
        row[P_PRUNE] = values["prune"]
        row[P_INFER] = values["infer"]
        row[P_GEN] = check_generation(values["gen"], "pimc") - 1  # its learned rollouts' generation
        return row


STRATEGY = PimcStrategy
