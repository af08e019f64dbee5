"""A user's bid rule laid over a built-in player's card play: ``rule(path.py:function,play=PLAYER)``.

Not a registry line: a rule seat has its card player's strategy id and names
its rule in the ``rule`` block of its row. Made by
:func:`wizsim.players.strategies.bid_rule`; the rule itself is
:mod:`.bid_rules`; its bid in the kernels: :mod:`wizsim.engine.players.rule`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.layout import S_TABLE
from ..engine.players import rule as engine
from ..errors import WizsimError
from .base import Strategy
from .bid_rules import BidRule


@dataclass(frozen=True)
class RuleStrategy(Strategy):
    """A user's bid rule (:mod:`wizsim.players.bid_rules`) with a built-in player's card play.

    The seat bids by ``rule``; every other decision (cards, trump, the
    Werewolf, forms, passes) is ``play``'s. In the kernels the seat is a
    ``play`` seat (``strategy_id`` is its id) whose row names the rule
    (``B_RULE``, set by the run: :meth:`wizsim.run.spec.RunSpec.kernel_args`).
    """

    name: str = "rule"
    strategy_id: int = S_TABLE
    rule: BidRule | None = None
    play: Strategy | None = None

    def needs(self) -> frozenset[str]:
        # a rule reads the heuristic's estimate and the table's bid (its features); the card play is play's
        return engine.NEEDS | (self.play.needs() if self.play is not None else frozenset())

    def _row(self) -> np.ndarray:
        if self.rule is None or self.play is None:
            raise WizsimError("a rule strategy needs a bid rule and a player: use wizsim.players.strategies.bid_rule")
        return self.play.param_row()
