"""The base of every player on the Python side: a :class:`Strategy` compiles to a strategy id plus a parameter row.

The kernels switch on the id (``engine/players/seats.py``) and read the
strategy's parameters from a float64 row whose slots are numbered from named
blocks (:data:`wizsim.engine.layout.PARAM_BLOCKS`), so a strategy is data to
them. Each registered player subclasses :class:`Strategy` in its own module
of this package (``wizsim/players/<name>.py``, exported as ``STRATEGY``), which
validates its parameters and fills its slots.

Every special-card decision can be overridden per seat with a decision
parameter (:data:`DECISIONS`): ``heuristic(pass=random)``, ``random(form=heuristic)``;
the keys are ``trump``, ``swap`` (the Werewolf), ``form`` and ``pass``, the
values ``own``, ``random`` and ``heuristic``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..engine.layout import DECIDE_HEURISTIC, DECIDE_OWN, DECIDE_RANDOM, DECISION_SLOTS, N_PARAMS, P_KIND, SLOT
from ..errors import WizsimError

# Decision overrides, for every strategy: which rule makes each special-card decision (the ``decision`` block:
# trump after a Wizard or special indicator, the Werewolf's swap, a Juggler's or Cloud's suit or a Shapeshifter's
# role, the card passed after a Juggler trick).
DECISIONS = {name: SLOT[f"decision.{name}"] for name in DECISION_SLOTS}
DECIDERS = {"own": DECIDE_OWN, "random": DECIDE_RANDOM, "heuristic": DECIDE_HEURISTIC}


@dataclass(frozen=True)
class Strategy:
    """A named player; ``strategy_id`` selects its decision code in the kernels."""

    name: str
    strategy_id: int
    params: dict = field(default_factory=dict)

    def needs(self) -> frozenset[str]:
        """What a seat of this player needs from the round beyond the deal, which decides what a run compiles
        and loads (:meth:`wizsim.run.spec.RunSpec.kernel_args`): ``heuristic`` (its estimate and card play),
        ``bid_table`` (the table player's learned bid values), ``pimc`` (pimc's search), ``learned`` (the
        learned card player), ``network`` (the learned player's card network), ``view`` (the round's view of
        the cards played, voids and known cards, :mod:`wizsim.engine.players.pimc_view`). A registered
        player answers with its engine module's ``NEEDS``."""
        return frozenset()

    def param_row(self) -> np.ndarray:
        """Return the float64 parameter row the kernels read (a subclass fills its own slots in ``_row``)."""
        row = self._row()
        row[P_KIND] = self.strategy_id  # whom pimc's rollouts play this seat as (rollout=4)
        return row

    def _row(self) -> np.ndarray:
        row = np.zeros(N_PARAMS, dtype=np.float64)
        for key in self.params:
            if key not in DECISIONS:
                raise WizsimError(
                    f"unknown parameter {key!r} for strategy {self.name}; decisions: {', '.join(DECISIONS)}"
                )
        self._fill_decisions(row)
        return row

    def _fill_decisions(self, row: np.ndarray) -> None:
        for key, slot in DECISIONS.items():
            value = self.params.get(key, "own")
            if value not in DECIDERS:
                raise WizsimError(
                    f"decision {key}={value!r} for strategy {self.name}: use one of {', '.join(DECIDERS)}"
                )
            row[slot] = DECIDERS[value]


def strategy_label(s: Strategy) -> str:
    """The canonical name of a strategy with its parameters, e.g. ``heuristic(bid_shift=0.2)``."""
    if not s.params:
        return s.name
    # repr keeps every digit: two strategies differing in the 8th digit stay apart
    inner = ",".join(f"{k}={v!r}" if isinstance(v, float) else f"{k}={v}" for k, v in sorted(s.params.items()))
    return f"{s.name}({inner})"
