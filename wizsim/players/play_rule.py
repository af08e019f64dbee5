"""A user's play rule laid over a built-in player: ``play(path.py:function,bid=PLAYER)``.

Not a registry line: a play-rule seat has its built-in player's strategy id
(bids, trump, the Werewolf, passes, and the cards the rule leaves to it) and
names its rule in the ``rule`` block of its row (``B_PLAY``, set by the run:
:meth:`wizsim.run.spec.RunSpec.kernel_args`). Made by
:func:`wizsim.players.strategies.play_rule`; the rule itself is
:mod:`.play_rules`; its card in the kernels: :mod:`wizsim.engine.players.play_rule`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine import layout as L
from ..errors import WizsimError
from .base import Strategy
from .play_rules import PlayRule


@dataclass(frozen=True)
class PlayRuleStrategy(Strategy):
    """A user's play rule (:mod:`wizsim.players.play_rules`) over a built-in player, or over a bid rule.

    The seat plays the card its rule scores highest; where the rule abstains
    its card is ``bid``'s card player's (the fallback); every other decision is
    ``bid``'s: a built-in player, or a :class:`~wizsim.players.rule.RuleStrategy`
    (a bid rule with its card player).
    """

    name: str = "play"
    strategy_id: int = L.S_TABLE
    rule: PlayRule | None = None
    bid: Strategy | None = None

    def needs(self) -> frozenset[str]:
        own = frozenset({"view"}) if self.rule is not None and self.rule.needs() & L.PLAY_NEEDS_VIEW else frozenset()
        return own | (self.bid.needs() if self.bid is not None else frozenset())

    def _row(self) -> np.ndarray:
        if self.rule is None or self.bid is None:
            raise WizsimError("a play-rule strategy needs a play rule and a player: use wizsim.strategies.play_rule")
        return self.bid.param_row()
